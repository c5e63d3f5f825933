internal import CLibWebP
import Foundation

/// Decodes one still WebP image (VP8, VP8L, VP8X with ALPH) through libwebp, at full size or scaled.
///
/// Output is `.rgba8` when the bitstream has alpha and `.rgb8` otherwise, with libwebp's defaults (fancy
/// upsampling, no dithering), so full-size samples equal `dwebp`'s. Scaled decoding uses libwebp's own
/// rescaler, which averages the area each output pixel covers.
enum WebPStillDecoder {
    /// Decodes `bytes` to `width` x `height` (the stored size unless `scaledTo` is given).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, container: WebPContainer, options: DecodeOptions,
        scaledTo scaled: (width: Int, height: Int)? = nil
    ) throws(ImageDecodingError) -> Image {
        var warnings = container.warnings
        do {
            return try decodeOnce(bytes, container: container, options: options, scaled: scaled, warnings: warnings)
        } catch .truncated(let format, let reason) {
            // A RIFF size larger than the file makes libwebp wait for bytes that never come, even when the
            // image chunk inside is whole: decode a copy whose RIFF size is the file's, and warn.
            if let patched = patchedRIFFSize(bytes) {
                warnings.append(WebPWarningTable.riffSizeTooLarge.warning("the RIFF size is larger than the file"))
                let whole = try? patched.withTypedBytes { (copy) throws(ImageDecodingError) in
                    try decodeOnce(copy, container: container, options: options, scaled: scaled, warnings: warnings)
                }
                if let whole { return whole }
            }
            guard options.strictness == .lenient else { throw .truncated(format: format, reason: reason) }
            return try decodePartial(bytes, container: container, options: options)
        }
    }

    /// One decode attempt through `WebPDecode`.
    private static func decodeOnce(
        _ bytes: UnsafeRawBufferPointer, container: WebPContainer, options: DecodeOptions,
        scaled: (width: Int, height: Int)?, warnings: [DecodeWarning]
    ) throws(ImageDecodingError) -> Image {
        var config = try configuration(for: bytes)
        let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let width = scaled?.width ?? Int(config.input.width)
        let height = scaled?.height ?? Int(config.input.height)
        try options.checkPixels(width: width, height: height)
        guard width > 0, height > 0 else { throw .corrupt(format: .webp, reason: "image has no pixels") }
        // A lossless bitstream can produce transparent pixels its header does not announce (palette indices
        // out of range decode as transparent black, as in dwebp): decode RGBA and keep alpha if any is used.
        let isLossless = config.input.format == 2
        let hasAlpha = config.input.has_alpha != 0 || isLossless
        let pixelFormat: PixelFormat = hasAlpha ? .rgba8 : .rgb8
        let stride = width * pixelFormat.bytesPerPixel
        if let scaled {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(scaled.width)
            config.options.scaled_height = Int32(scaled.height)
        }
        var status = VP8_STATUS_OK
        // libwebp writes every byte of the buffer it is given, so it is not zeroed first.
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, initialized in
            config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = buffer.count
            status = WebPDecode(input, bytes.count, &config)
            if status != VP8_STATUS_OK { buffer.initialize(repeating: 0) }
            initialized = buffer.count
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, context: "cannot decode the WebP image") }
        var metadata = baseMetadata(container)
        metadata.warnings = warnings
        let image = Image(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels, metadata: metadata)
        if isLossless && config.input.has_alpha == 0 && isOpaque(image) { return droppingAlpha(image) }
        return image
    }

    /// An opaque RGBA8 image as RGB8: the same samples `converted(to: .rgb8)` gives, in one tight pass
    /// (the generic conversion widens every sample to `Int` first and took a third of a lossless decode).
    private static func droppingAlpha(_ image: Image) -> Image {
        let pixelCount = image.width * image.height
        let pixels = image.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: pixelCount * 3) { buffer, initialized in
                var from = 0
                var to = 0
                for _ in 0..<pixelCount {
                    buffer[to] = source[from]
                    buffer[to + 1] = source[from + 1]
                    buffer[to + 2] = source[from + 2]
                    from += 4
                    to += 3
                }
                initialized = pixelCount * 3
            }
        }
        return Image(
            width: image.width, height: image.height, pixelFormat: .rgb8, pixels: pixels, metadata: image.metadata)
    }

    /// Whether every alpha sample of an RGBA8 image is 255.
    private static func isOpaque(_ image: Image) -> Bool {
        image.withUnsafeBytes { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    /// Lenient decoding of a truncated still image: the rows the incremental decoder produced.
    static func decodePartial(
        _ bytes: UnsafeRawBufferPointer, container: WebPContainer, options: DecodeOptions
    ) throws(ImageDecodingError) -> Image {
        var config = try configuration(for: bytes)
        let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let width = Int(config.input.width)
        let height = Int(config.input.height)
        try options.checkPixels(width: width, height: height)
        let hasAlpha = config.input.has_alpha != 0
        let pixelFormat: PixelFormat = hasAlpha ? .rgba8 : .rgb8
        let stride = width * pixelFormat.bytesPerPixel
        var rowsDecoded = 0
        var failure: VP8StatusCode?
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = buffer.count
            config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = buffer.count
            guard let decoder = WebPINewDecoder(&config.output) else {
                failure = VP8_STATUS_OUT_OF_MEMORY
                return
            }
            defer { WebPIDelete(decoder) }
            let status = WebPIUpdate(decoder, input, bytes.count)
            guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else {
                failure = status
                return
            }
            var lastRow: Int32 = 0
            _ = WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil)
            rowsDecoded = Int(lastRow)
        }
        WebPFreeDecBuffer(&config.output)
        if let failure { throw WebPStatus.error(failure, context: "cannot decode the WebP image") }
        guard width > 0, height > 0 else { throw .corrupt(format: .webp, reason: "image has no pixels") }
        var metadata = baseMetadata(container)
        metadata.warnings =
            container.warnings + [
                WebPWarningTable.truncatedData.warning("the data ends after \(rowsDecoded) of \(height) rows")
            ]
        return Image(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels, metadata: metadata)
    }

    /// A decoder configuration with libwebp's defaults and the bitstream's features read from `bytes`.
    private static func configuration(for bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> WebPDecoderConfig
    {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .corrupt(format: .webp, reason: "libwebp version mismatch")
        }
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &config.input)
        guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, context: "cannot read the WebP header") }
        return config
    }

    /// The metadata every WebP decode starts from.
    static func baseMetadata(_ container: WebPContainer) -> ImageMetadata {
        var metadata = ImageMetadata(sourceFormat: .webp, sourceBitDepth: 8)
        metadata.iccProfile = container.iccProfile
        if let exif = container.exif {
            metadata.exif = exif
            metadata.orientation = EXIFReader.orientation(tiff: exif) ?? .up
        }
        return metadata
    }

    /// A copy of `bytes` whose RIFF size is the file's, when the declared one is larger; else `nil`.
    private static func patchedRIFFSize(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count >= 12 else { return nil }
        let declared = Int(bytes.load(fromByteOffset: 4, as: UInt32.self).littleEndian)
        guard declared + 8 > bytes.count else { return nil }
        var copy = [UInt8](bytes)
        let actual = UInt32(bytes.count - 8)
        withUnsafeBytes(of: actual.littleEndian) { size in
            for index in 0..<4 { copy[4 + index] = size[index] }
        }
        return copy
    }
}
