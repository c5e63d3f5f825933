import CPixpipeJXL
import Foundation

extension ImageFormat {
    /// JPEG XL (bare codestream or ISO-BMFF container; stills and animations).
    public static let jxl = ImageFormat(rawValue: "jxl")
}

/// JPEG XL through libjxl 0.7, loaded on first use: 8-bit, deeper and float samples, gray and colour, alpha
/// (premultiplied files come out straight), animations (frames coalesced on the canvas, durations from the
/// frame headers and ticks per second, loop count), ICC profiles (libjxl writes one for an encoded colour
/// space too), `Exif` and `xml ` boxes, and JPEG reconstruction data (see ``JPEGXL``).
///
/// Pixels are returned as stored, with the codestream's orientation in ``ImageMetadata/orientation`` (as
/// the JPEG and AVIF decoders do; libjxl's own turning is switched off so it is never applied twice).
/// ``ImageInfo`` counts an animation's frames by parsing the frame headers only (libjxl skips their pixel
/// data). Limits are checked from the basic info before any pixel buffer exists, and frames as they are met.
///
/// What libjxl reports, and what the decoder does with it (see ``JXLWarningTable``):
///
/// | libjxl | strict | lenient | why |
/// |---|---|---|---|
/// | `JXL_DEC_NEED_MORE_INPUT` with the input closed | `.truncated` | `.truncated` (an animation ends after its last whole frame, with a warning) | pixels are missing; a still frame is all or nothing |
/// | `JXL_DEC_ERROR` | `.corrupt` | `.corrupt` (an animation ends after its last whole frame, with a warning) | the codestream is damaged or uses what libjxl 0.7 refuses |
struct JXLCodec: ImageCodec {
    var format: ImageFormat { .jxl }
    var fileExtensions: [String] { ["jxl"] }
    var mediaTypes: [String] { ["image/jxl"] }
    var warningRules: [WarningRule] { JXLWarningTable.rows }
    var writes16Bit: Bool { true }
    var canEncode: Bool { true }
    var defaultQuality: Int? { JXLEncodeOptions.defaultQuality }
    var canEncodeAnimation: Bool { true }
    var decodesAnimation: Bool { true }
    var hasLosslessMode: Bool { true }

    /// The bare codestream (`FF 0A`) or the container's signature box.
    func matches(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: [0xFF, 0x0A])
            || prefix.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        // No limits apply to a header read but the frame count, which bounds the scan's time.
        try JXLHeader(
            bytes, pixelLimit: nil, frameLimit: DecodeOptions.defaultFrameLimit, animationPixelLimit: nil
        ).imageInfo
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try options.checkBytes(bytes.count)
        let reader = try JXLFrameReader(bytes, options: options)
        if reader.info.have_animation != 0 {
            // The frame headers are counted first, as every animated decoder refuses a file over the frame
            // limits even when only its first frame is asked for.
            _ = try JXLHeader(
                bytes, pixelLimit: options.pixelLimit, frameLimit: options.frameLimit,
                animationPixelLimit: options.animationPixelLimit, lenient: options.strictness == .lenient)
        }
        guard let frame = try reader.nextFrame() else {
            throw .corrupt(format: .jxl, reason: "the file holds no frame")
        }
        if reader.info.have_animation == 0 { try reader.readToEnd() }
        return Image(
            width: reader.width, height: reader.height, pixelFormat: reader.pixelFormat, pixels: frame.pixels,
            metadata: reader.metadata)
    }

    /// Decodes every frame (an animation's too), so damage anywhere is found.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        try options.checkBytes(bytes.count)
        let header = try JXLHeader(
            bytes, pixelLimit: options.pixelLimit, frameLimit: options.frameLimit,
            animationPixelLimit: options.animationPixelLimit)
        var quick = options
        quick.keeps16Bit = false
        let reader = try JXLFrameReader(bytes, options: quick)
        while try reader.nextFrame() != nil {}
        return header.imageInfo
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        try JXLFrameDecoder(data: data, options: options)
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try JXLEncoder.encode(
            [image], durations: [], loopCount: 0, options: self.options(options, as: JXLEncodeOptions.self))
    }

    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        try JXLEncoder.encode(
            frames.map(\.image), durations: frames.map(\.duration), loopCount: loopCount,
            options: self.options(options, as: JXLEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .jxl(
            JXLEncodeOptions(
                quality: settings.quality ?? JXLEncodeOptions.defaultQuality, lossless: settings.lossless,
                effort: settings.effort ?? JXLEncodeOptions.defaultEffort, includesICCProfile: settings.keepsMetadata))
    }
}

/// Walks a JPEG XL file's displayed frames; a still image is an animation of one.
///
/// The frame headers are scanned first (no pixels), so the frame count is known and checked against the
/// limits before any frame is decoded. The bytes are copied once, since libjxl reads them between frames.
final class JXLFrameDecoder: FrameDecoder {
    private let storage: UnsafeMutableRawBufferPointer
    private let reader: JXLFrameReader
    private let options: DecodeOptions
    private let metadata: ImageMetadata
    private var index = 0
    private var finished = false
    /// The next frame, decoded ahead in lenient mode.
    private var pending: (pixels: [UInt8], duration: Duration)?

    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    let loopCount: Int

    init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        try options.checkBytes(data.count)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        let bytes = UnsafeRawBufferPointer(rebasing: storage[..<data.count])
        do {
            let header = try JXLHeader(
                bytes, pixelLimit: options.pixelLimit, frameLimit: options.frameLimit,
                animationPixelLimit: options.animationPixelLimit, lenient: options.strictness == .lenient)
            reader = try JXLFrameReader(bytes, options: options)
            metadata = JXLHeader.metadata(header.info, icc: reader.iccProfile, boxes: header.boxes)
            frameCount = header.frameDurations.count
            loopCount = header.loopCount
        } catch {
            storage.deallocate()
            throw error
        }
        self.options = options
        canvasWidth = reader.width
        canvasHeight = reader.height
    }

    deinit { storage.deallocate() }

    /// In lenient mode the next frame is decoded ahead, so that a damaged or cut frame ends the animation
    /// with a warning on the last whole frame.
    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard !finished, index < frameCount else { return nil }
        let frame: (pixels: [UInt8], duration: Duration)
        if let pending {
            frame = pending
            self.pending = nil
        } else {
            guard let read = try reader.nextFrame() else {
                finished = true
                return nil
            }
            frame = read
        }
        var image = Image(
            width: canvasWidth, height: canvasHeight, pixelFormat: reader.pixelFormat, pixels: frame.pixels,
            metadata: metadata)
        let frameIndex = index
        index += 1
        if options.strictness == .lenient, index < frameCount {
            do {
                pending = try reader.nextFrame()
                if pending == nil { finished = true }
            } catch {
                finished = true
                image.metadata.warnings.append(JXLWarningTable.warning(after: error, frame: index))
            }
        }
        return AnimationFrame(index: frameIndex, image: image, duration: frame.duration)
    }
}
