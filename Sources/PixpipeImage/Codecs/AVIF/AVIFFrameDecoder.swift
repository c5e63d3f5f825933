import Foundation

/// Walks an AVIF image sequence one frame at a time; a still AVIF is a sequence of one.
///
/// AVIF frames are whole pictures (no blending or disposal), so each decoded frame is the canvas. The
/// bytes are copied once into memory the decoder owns, because libavif reads them while frames decode.
final class AVIFFrameDecoder: FrameDecoder {
    private let storage: UnsafeMutableRawBufferPointer
    private let handle: AVIFDecoderHandle
    private let options: DecodeOptions
    private var index = 0
    private var finished = false
    /// The duration of frame `index` when it is already decoded into libavif's planes.
    private var pending: Duration?

    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    /// AVIF has no loop count: 0, forever, as browsers play sequences.
    var loopCount: Int { 0 }

    /// Parses `data` and checks the canvas and frame count against `options` before any frame.
    init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        do {
            handle = try AVIFCodec.open(UnsafeRawBufferPointer(rebasing: storage[..<data.count]), options: options)
            try options.checkAnimation(width: handle.width, height: handle.height, frameCount: handle.imageCount)
        } catch {
            storage.deallocate()
            throw error
        }
        self.options = options
        canvasWidth = handle.width
        canvasHeight = handle.height
        frameCount = handle.imageCount
    }

    deinit { storage.deallocate() }

    /// In lenient mode the next frame is decoded ahead (into libavif's planes, no pixel buffer), so that a
    /// damaged or cut frame ends the animation with a warning on the last whole frame.
    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard !finished, index < frameCount else { return nil }
        let duration: Duration
        if let pending {
            duration = pending
            self.pending = nil
        } else {
            duration = try handle.nextImage()
        }
        let metadata = AVIFPixels.metadata(of: handle.image.pointee, warnings: handle.warnings)
        var image = try AVIFPixels.image(handle, metadata: metadata, options: options)
        let frameIndex = index
        index += 1
        if options.strictness == .lenient, index < frameCount {
            do {
                pending = try handle.nextImage()
            } catch {
                finished = true
                image.metadata.warnings.append(AVIFWarningTable.warning(after: error, frame: index))
            }
        }
        return AnimationFrame(index: frameIndex, image: image, duration: duration)
    }
}
