internal import CLibWebP
import Foundation

/// Decodes an animated WebP frame by frame through libwebp's animation decoder, which composites each
/// frame on the canvas (alpha blending and disposal) exactly as libwebp's own tools show it.
///
/// The decoder owns a copy of the file (libwebp reads it in place for the decoder's whole life) and one
/// canvas; each frame handed out is a copy of that canvas, so a caller that walks the frames holds one at
/// a time.
final class WebPAnimationDecoder: FrameDecoder {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    let loopCount: Int

    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    private let metadata: ImageMetadata
    private var nextIndex = 0
    private var previousTimestamp: Int32 = 0

    /// Opens `data`, whose container `container` describes; the limits were checked by the caller.
    init(_ data: Data, container: WebPContainer) throws(ImageDecodingError) {
        guard container.isComplete else {
            throw .truncated(format: .webp, reason: "the animation ends before its last frame")
        }
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        _ = data.copyBytes(to: bytes)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw .corrupt(format: .webp, reason: "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            bytes.deallocate()
            throw .corrupt(format: .webp, reason: "cannot open the animation")
        }
        self.decoder = decoder
        canvasWidth = container.width
        canvasHeight = container.height
        frameCount = container.frameCount
        loopCount = container.loopCount
        var metadata = WebPStillDecoder.baseMetadata(container)
        metadata.warnings = container.warnings
        self.metadata = metadata
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw .corrupt(format: .webp, reason: "cannot decode frame \(nextIndex + 1) of the animation")
        }
        let count = canvasWidth * canvasHeight * 4
        let pixels = [UInt8](UnsafeBufferPointer(start: canvas, count: count))
        let image = Image(
            width: canvasWidth, height: canvasHeight, pixelFormat: .rgba8, pixels: pixels, metadata: metadata)
        let frame = AnimationFrame(
            index: nextIndex, image: image, duration: .milliseconds(Int(timestamp - previousTimestamp)))
        previousTimestamp = timestamp
        nextIndex += 1
        return frame
    }
}
