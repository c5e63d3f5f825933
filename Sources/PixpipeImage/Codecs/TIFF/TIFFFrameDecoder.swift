import Foundation

/// Walks a TIFF's pages as frames, each page's image at its own size; a one-page TIFF is one frame.
///
/// The canvas is the first page's size. Limits are checked from the directories before any page is
/// decoded: each page against the pixel limit, the page count against the frame limit, and the pixels of
/// every page together against the animation pixel limit. The bytes are copied once into memory the
/// decoder owns, because libtiff reads them while pages decode. In lenient mode a page that cannot be
/// decoded ends the frames after the last whole page; strict mode throws.
final class TIFFFrameDecoder: FrameDecoder {
    private let storage: UnsafeMutableRawBufferPointer
    private let handle: TIFFHandle
    private let options: DecodeOptions
    private let chain: TIFFChain
    private var index = 0

    let canvasWidth: Int
    let canvasHeight: Int
    var frameCount: Int { chain.pages.count }
    /// TIFF has no loop count: 0, as for a still image.
    var loopCount: Int { 0 }
    /// Pages have their own sizes; ``TIFFChain/check(_:)`` checked them in init.
    var framesHaveTheirOwnSizes: Bool { true }

    /// Walks the directories of `data` and checks the limits before any page.
    init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        let bytes = UnsafeRawBufferPointer(rebasing: storage[..<data.count])
        do {
            chain = try TIFFCodec.structure(bytes, frameLimit: options.frameLimit)
            try chain.check(options)
            try options.enforce(chain.warnings, format: .tiff)
            handle = try TIFFHandle(bytes: bytes, pixelLimit: options.pixelLimit)
        } catch {
            storage.deallocate()
            throw error
        }
        self.options = options
        canvasWidth = chain.pages[0].width
        canvasHeight = chain.pages[0].height
    }

    deinit { storage.deallocate() }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard index < chain.pages.count else { return nil }
        let frameIndex = index
        index += 1
        let image: Image
        do {
            image = try TIFFDecoder.decode(
                handle, page: frameIndex, options: options, pageWarnings: frameIndex == 0 ? chain.warnings : [])
        } catch {
            guard options.strictness == .lenient, frameIndex > 0 else { throw error }
            index = chain.pages.count
            return nil
        }
        return AnimationFrame(index: frameIndex, image: image, duration: .zero)
    }
}
