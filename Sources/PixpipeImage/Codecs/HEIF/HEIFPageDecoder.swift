import CPixpipeHEIF
import Foundation

/// The top-level images of a HEIF file as pages, in the file's order (`--frame N`, ``AnimationReader``).
///
/// HEIF pages are separate pictures, not an animation: each has its own size and no duration. The canvas
/// is the primary image's size. The bytes are copied once into memory the decoder owns, because libheif
/// reads them while pages decode.
final class HEIFPageDecoder: FrameDecoder {
    private let storage: UnsafeMutableRawBufferPointer
    private let context: HEIFContext
    private let ids: [heif_item_id]
    private let options: DecodeOptions
    private var index = 0

    let canvasWidth: Int
    let canvasHeight: Int
    var frameCount: Int { ids.count }
    /// Pages do not loop: 0, as for a still image.
    var loopCount: Int { 0 }

    /// Parses `data` and checks the page count and the primary's size against `options` before any page.
    init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        do {
            context = try HEIFContext(
                bytes: UnsafeRawBufferPointer(rebasing: storage[..<data.count]), pixelLimit: options.pixelLimit)
            ids = context.topLevelIDs.isEmpty ? [0] : context.topLevelIDs
            try options.checkAnimation(width: context.width, height: context.height, frameCount: ids.count)
        } catch {
            storage.deallocate()
            throw error
        }
        self.options = options
        canvasWidth = context.width
        canvasHeight = context.height
    }

    deinit { storage.deallocate() }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard index < ids.count else { return nil }
        defer { index += 1 }
        let image: Image
        if ids[index] == 0 {
            image = try HEIFCodec.decode(context.primary, depth: context.depth, options: options)
        } else {
            let handle = try context.handle(ids[index])
            defer { pxp_heif_image_handle_release(handle) }
            let depth = max(Int(pxp_heif_image_handle_get_luma_bits_per_pixel(handle)), 8)
            image = try HEIFCodec.decode(handle, depth: depth, options: options)
        }
        return AnimationFrame(index: index, image: image, duration: .zero)
    }
}
