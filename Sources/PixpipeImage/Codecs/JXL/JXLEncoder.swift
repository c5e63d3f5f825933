import CPixpipeJXL
import Foundation

/// Writes JPEG XL stills and animations with libjxl's encoder.
///
/// The colour space is the image's ICC profile when it has one and the options keep it, sRGB otherwise;
/// ``ImageMetadata/orientation`` is written as the codestream's orientation, which readers apply; EXIF and
/// XMP go into `Exif` and `xml ` boxes (the codestream's orientation is the one readers apply). 16-bit
/// images keep 16 bits unless ``JXLEncodeOptions/bitDepth`` is 8.
enum JXLEncoder {
    /// Encodes `images` (all of one size and pixel format); more than one, or any duration, makes an
    /// animation with millisecond ticks and `loopCount` (0 forever).
    static func encode(
        _ images: [Image], durations: [Duration], loopCount: Int, options: JXLEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("JPEG XL quality must be 1...100, got \(options.quality)")
        }
        guard (1...9).contains(options.effort) else {
            throw .invalidOption("JPEG XL effort must be 1...9, got \(options.effort)")
        }
        guard let first = images.first else { throw .invalidOption("no frames to encode") }
        let format = first.pixelFormat
        guard images.allSatisfy({ $0.width == first.width && $0.height == first.height && $0.pixelFormat == format })
        else { throw .invalidOption("every frame of a JPEG XL animation needs the first frame's size and format") }
        let session = try Session()
        let animated = images.count > 1
        var info = JxlBasicInfo()
        pxp_JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(first.width)
        info.ysize = UInt32(first.height)
        let bits = options.bitDepth ?? format.bitsPerSample
        guard bits == 8 || bits == 16 else { throw .invalidOption("JPEG XL bit depth must be 8 or 16, got \(bits)") }
        info.bits_per_sample = UInt32(bits)
        info.num_color_channels = format.layout.isColor ? 3 : 1
        info.alpha_bits = format.layout.hasAlpha ? UInt32(bits) : 0
        info.num_extra_channels = format.layout.hasAlpha ? 1 : 0
        info.uses_original_profile = options.isLossless ? 1 : 0
        info.orientation = JxlOrientation(rawValue: UInt32(first.metadata.orientation.rawValue))
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: loopCount)
        }
        try session.check(pxp_JxlEncoderSetBasicInfo(session.encoder, &info), "basic info")
        if format.layout.hasAlpha {
            var alpha = JxlExtraChannelInfo()
            pxp_JxlEncoderInitExtraChannelInfo(JXL_CHANNEL_ALPHA, &alpha)
            alpha.bits_per_sample = UInt32(bits)
            try session.check(pxp_JxlEncoderSetExtraChannelInfo(session.encoder, 0, &alpha), "alpha channel")
        }
        if options.includesICCProfile, let icc = first.metadata.iccProfile, !icc.isEmpty {
            try session.check(pxp_JxlEncoderSetICCProfile(session.encoder, icc, icc.count), "ICC profile")
        } else {
            try session.check(pxp_jxl_encoder_set_srgb(session.encoder, format.layout.isColor ? 0 : 1), "sRGB")
        }
        try session.addMetadataBoxes(first.metadata)
        guard let settings = pxp_JxlEncoderFrameSettingsCreate(session.encoder) else {
            throw .libraryFailure(format: .jxl, reason: "no frame settings")
        }
        try session.check(
            pxp_JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(options.effort)),
            "effort")
        if options.isLossless {
            try session.check(pxp_JxlEncoderSetFrameLossless(settings, 1), "lossless")
        } else {
            try session.check(pxp_JxlEncoderSetFrameDistance(settings, options.distance), "distance")
        }
        var pixelFormat = JxlPixelFormat(
            num_channels: UInt32(format.channels),
            data_type: format.bitsPerSample == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN,
            align: 0)
        for (index, image) in images.enumerated() {
            if animated {
                var header = JxlFrameHeader()
                pxp_JxlEncoderInitFrameHeader(&header)
                let duration = index < durations.count ? durations[index] : .milliseconds(100)
                let (seconds, attoseconds) = duration.components
                header.duration = UInt32(clamping: max(seconds * 1000 + attoseconds / 1_000_000_000_000_000, 1))
                try session.check(pxp_JxlEncoderSetFrameHeader(settings, &header), "frame header")
            }
            try image.pixels.withTypedBytes { (raw) throws(ImageEncodingError) in
                try session.check(
                    pxp_JxlEncoderAddImageFrame(settings, &pixelFormat, raw.baseAddress, raw.count), "frame \(index)")
            }
        }
        pxp_JxlEncoderCloseInput(session.encoder)
        return try session.output()
    }

    /// An encoder with a thread pool, destroyed with it.
    final class Session {
        let encoder: OpaquePointer
        private let runner: UnsafeMutableRawPointer?

        init() throws(ImageEncodingError) {
            guard let encoder = pxp_JxlEncoderCreate() else {
                throw .libraryFailure(
                    format: .jxl, reason: pxp_jxl_load_error().map { String(cString: $0) } ?? "no encoder")
            }
            self.encoder = encoder
            runner = pxp_jxl_runner_create(2)
            if let runner { _ = pxp_jxl_encoder_set_runner(encoder, runner) }
        }

        deinit {
            pxp_JxlEncoderDestroy(encoder)
            if let runner { pxp_jxl_runner_destroy(runner) }
        }

        /// Throws libjxl's error code when `status` is not success.
        func check(_ status: JxlEncoderStatus, _ what: String) throws(ImageEncodingError) {
            guard status == JXL_ENC_SUCCESS else {
                let code = pxp_JxlEncoderGetError(encoder).rawValue
                throw .libraryFailure(format: .jxl, reason: "\(what): libjxl error \(code)")
            }
        }

        /// Writes the image's EXIF (an `Exif` box: a 4-byte offset to the TIFF header, then the TIFF data) and
        /// XMP (an `xml ` box), uncompressed, as `cjxl` stores them; nothing when the metadata has neither.
        func addMetadataBoxes(_ metadata: ImageMetadata) throws(ImageEncodingError) {
            let exif = metadata.exif.flatMap { $0.isEmpty ? nil : [0, 0, 0, 0] + $0 }
            let xmp = metadata.xmp.flatMap { $0.isEmpty ? nil : $0 }
            guard exif != nil || xmp != nil else { return }
            try check(pxp_JxlEncoderUseContainer(encoder, 1), "container")
            try check(pxp_JxlEncoderUseBoxes(encoder), "boxes")
            for (type, contents) in [("Exif", exif), ("xml ", xmp)] {
                guard let contents else { continue }
                try check(pxp_JxlEncoderAddBox(encoder, type, contents, contents.count), "\(type) box")
            }
        }

        /// Runs the encoder to the end and returns the file.
        func output() throws(ImageEncodingError) -> Data {
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var status = JXL_ENC_ERROR
                let written = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
                    var available = buffer.count
                    status = pxp_JxlEncoderProcessOutput(encoder, &next, &available)
                    return buffer.count - available
                }
                data.append(contentsOf: chunk[..<written])
                if status == JXL_ENC_SUCCESS { return data }
                if status != JXL_ENC_NEED_MORE_OUTPUT { try check(status, "encoding") }
            }
        }
    }
}
