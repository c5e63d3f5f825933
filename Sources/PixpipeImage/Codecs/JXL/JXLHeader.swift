import CPixpipeJXL

/// What a JPEG XL file says without decoding pixels: the basic info, the colour profile, the metadata
/// boxes and, for an animation, each displayed frame's duration (from the frame headers alone).
struct JXLHeader {
    var info: JxlBasicInfo
    var iccProfile: [UInt8]?
    var boxes: [String: [UInt8]]
    /// Each displayed frame's duration; one entry for a still image.
    var frameDurations: [Duration]

    var width: Int { Int(info.xsize) }
    var height: Int { Int(info.ysize) }
    var isAnimated: Bool { info.have_animation != 0 }
    /// The animation's loop count (0 forever), 0 for a still image.
    var loopCount: Int { isAnimated ? Int(info.animation.num_loops) : 0 }

    /// Reads the header of `bytes`. The frame headers are parsed (libjxl skips their pixel data) to count the
    /// frames, and the scan stops with ``ImageDecodingError/tooManyFrames(count:limit:)`` past `frameLimit`
    /// and ``ImageDecodingError/animationTooLarge(width:height:frames:limit:)`` past `animationPixelLimit`;
    /// `pixelLimit` is checked as soon as the basic info is known.
    /// `lenient` ends the scan at a cut or damaged frame after the first (the frames before it count).
    init(
        _ bytes: UnsafeRawBufferPointer, pixelLimit: Int?, frameLimit: Int?, animationPixelLimit: Int?,
        lenient: Bool = false
    ) throws(ImageDecodingError) {
        let handle = try JXLDecoderHandle(
            bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME, JXL_DEC_BOX])
        var info: JxlBasicInfo?
        var icc: [UInt8]?
        var durations: [Duration] = []
        let limits = DecodeOptions(
            pixelLimit: pixelLimit, frameLimit: frameLimit, animationPixelLimit: animationPixelLimit)
        loop: while true {
            let status: JxlDecoderStatus
            do {
                status = try handle.next()
            } catch {
                guard lenient, durations.count > 1 else { throw error }
                // The last header met may belong to the cut frame; the frame reader finds out.
                break loop
            }
            switch status {
            case JXL_DEC_BASIC_INFO:
                let basic = try handle.basicInfo()
                try limits.checkPixels(width: Int(basic.xsize), height: Int(basic.ysize))
                info = basic
            case JXL_DEC_COLOR_ENCODING:
                icc = handle.iccProfile()
            case JXL_DEC_FRAME:
                guard let basic = info else { continue }
                let header = try handle.frameHeader()
                durations.append(Self.duration(ticks: header.duration, info: basic))
                try limits.checkAnimation(
                    width: Int(basic.xsize), height: Int(basic.ysize), frameCount: durations.count)
            case JXL_DEC_SUCCESS:
                break loop
            default:
                continue
            }
        }
        guard let info else { throw .corrupt(format: .jxl, reason: "no basic info") }
        self.info = info
        iccProfile = icc
        boxes = handle.boxes
        frameDurations = durations.isEmpty ? [.zero] : durations
    }

    /// A frame's duration: `ticks` of `tps_denominator / tps_numerator` seconds.
    static func duration(ticks: UInt32, info: JxlBasicInfo) -> Duration {
        guard info.have_animation != 0, info.animation.tps_numerator > 0 else { return .zero }
        let milliseconds =
            Int64(ticks) * 1000 * Int64(info.animation.tps_denominator) / Int64(info.animation.tps_numerator)
        return .milliseconds(milliseconds)
    }

    /// The pixel format a decode gives: gray or RGB, with alpha when the file has one; 16 bits for deeper or
    /// float sources when `keeps16Bit`, else 8.
    static func pixelFormat(_ info: JxlBasicInfo, keeps16Bit: Bool) -> PixelFormat {
        let gray = info.num_color_channels == 1
        let alpha = info.alpha_bits > 0
        let layout: PixelLayout = gray ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb)
        let deep = info.bits_per_sample > 8 || info.exponent_bits_per_sample > 0
        return PixelFormat(layout: layout, bitsPerSample: deep && keeps16Bit ? 16 : 8)
    }

    /// The metadata: source depth, the codestream's orientation (pixels are kept as stored), the ICC profile,
    /// and the `Exif` (its 4-byte offset stripped) and `xml ` boxes.
    static func metadata(_ info: JxlBasicInfo, icc: [UInt8]?, boxes: [String: [UInt8]]) -> ImageMetadata {
        var metadata = ImageMetadata(sourceFormat: .jxl, sourceBitDepth: Int(info.bits_per_sample))
        metadata.orientation = Orientation(rawValue: Int(info.orientation.rawValue)) ?? .up
        metadata.iccProfile = icc
        if let exif = boxes["Exif"], exif.count > 4 {
            // The box starts with the big-endian offset of the TIFF header from the end of these 4 bytes.
            let offset = exif[0..<4].reduce(0) { $0 << 8 | Int($1) }
            if offset >= 0, offset < exif.count - 4 { metadata.exif = Array(exif[(4 + offset)...]) }
        }
        metadata.xmp = boxes["xml "]
        return metadata
    }

    /// The header as ``ImageInfo`` (16 bits for deeper sources, as `keeps16Bit` gives).
    var imageInfo: ImageInfo {
        let animation =
            isAnimated
            ? AnimationInfo(
                frameCount: frameDurations.count, loopCount: loopCount,
                duration: frameDurations.reduce(.zero, +)) : nil
        return ImageInfo(
            format: .jxl, width: width, height: height, pixelFormat: Self.pixelFormat(info, keeps16Bit: true),
            metadata: Self.metadata(info, icc: iccProfile, boxes: boxes), animation: animation)
    }
}
