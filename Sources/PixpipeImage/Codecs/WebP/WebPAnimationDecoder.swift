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
    /// For a file cut short (lenient mode): how many frames are whole, and the warning the last one carries.
    private var wholeFrameCount: Int?
    private var truncationWarning: DecodeWarning?

    /// Opens `data`, whose container `container` describes; the limits were checked by the caller.
    ///
    /// A file cut short is an error in strict mode; in lenient mode the animation ends after its last whole
    /// frame, which carries a warning.
    init(_ data: Data, container: WebPContainer, options: DecodeOptions) throws(ImageDecodingError) {
        var data = data
        if !container.isComplete {
            let cut = ImageDecodingError.truncated(format: .webp, reason: "the animation ends before its last frame")
            guard options.strictness == .lenient, let whole = Self.wholeFrames(of: data) else { throw cut }
            data = whole.data
            truncationWarning = WebPWarningTable.truncatedData.warning(
                "the data ends inside frame \(whole.frames + 1) of \(container.frameCount); kept the \(whole.frames) before it"
            )
            wholeFrameCount = whole.frames
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

    /// The file up to the end of its last whole frame, with its RIFF size set to match, and that frame count;
    /// `nil` when not even the first frame is whole.
    private static func wholeFrames(of data: Data) -> (data: Data, frames: Int)? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> (data: Data, frames: Int)? in
            guard let base = bytes.baseAddress else { return nil }
            var input = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            var state = WEBP_DEMUX_PARSING_HEADER
            guard let demux = WebPDemuxPartial(&input, &state) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var iterator = WebPIterator()
            var end = 0
            var frames = 0
            if WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
                repeat {
                    guard iterator.complete != 0, let fragment = iterator.fragment.bytes else { break }
                    // Chunks are padded to an even length.
                    let fragmentEnd = UnsafeRawPointer(fragment) - base + iterator.fragment.size
                    end = min(bytes.count, fragmentEnd + fragmentEnd % 2)
                    frames += 1
                } while WebPDemuxNextFrame(&iterator) != 0
                WebPDemuxReleaseIterator(&iterator)
            }
            guard frames > 0 else { return nil }
            var whole = Data(bytes[0..<end])
            let riffSize = UInt32(end - 8).littleEndian
            withUnsafeBytes(of: riffSize) { size in whole.replaceSubrange(4..<8, with: size) }
            return (whole, frames)
        }
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        if let wholeFrameCount, nextIndex >= wholeFrameCount { return nil }
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw .corrupt(format: .webp, reason: "cannot decode frame \(nextIndex + 1) of the animation")
        }
        let count = canvasWidth * canvasHeight * 4
        let pixels = [UInt8](UnsafeBufferPointer(start: canvas, count: count))
        var image = Image(
            width: canvasWidth, height: canvasHeight, pixelFormat: .rgba8, pixels: pixels, metadata: metadata)
        if let truncationWarning, nextIndex + 1 == wholeFrameCount { image.metadata.warnings.append(truncationWarning) }
        let frame = AnimationFrame(
            index: nextIndex, image: image, duration: .milliseconds(Int(timestamp - previousTimestamp)))
        previousTimestamp = timestamp
        nextIndex += 1
        return frame
    }
}
