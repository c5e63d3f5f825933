internal import CLibWebP
import Foundation

/// Encodes images as WebP through libwebp: lossy or lossless, alpha kept, ICC and EXIF written by the muxer,
/// animations through `WebPAnimEncoder`.
///
/// Gray layouts are widened to RGB (WebP has no gray mode) and 16-bit samples reduced to 8 bits first.
enum WebPEncoder {
    /// The largest side WebP stores.
    static let maxDimension = 16383

    /// WebP bytes for `image`.
    static func encode(_ image: Image, options: WebPEncodeOptions) throws(ImageEncodingError) -> Data {
        var config = try makeConfig(options)
        let bitstream = try withPicture(of: image) { (picture) throws(ImageEncodingError) -> Data in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            picture.writer = WebPMemoryWrite
            return try withUnsafeMutablePointer(to: &writer) { (writerPointer) throws(ImageEncodingError) -> Data in
                picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                guard WebPEncode(&config, &picture) != 0 else { throw failure(picture.error_code) }
                return Data(bytes: writerPointer.pointee.mem, count: writerPointer.pointee.size)
            }
        }
        return try addingMetadata(to: bitstream, of: image, options: options)
    }

    /// An animated WebP of `frames` (all of one size), each shown for its duration, looping `loopCount`
    /// times (0 = forever). libwebp's encoder stores only what changes between frames.
    static func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: WebPEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        guard let first = frames.first else { throw .invalidOption("an animation needs at least one frame") }
        try checkSize(first.image)
        var config = try makeConfig(options)
        var animOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animOptions) != 0 else {
            throw .libraryFailure(format: .webp, reason: "libwebp version mismatch")
        }
        animOptions.anim_params.loop_count = Int32(clamping: loopCount)
        guard
            let encoder = WebPAnimEncoderNew(Int32(first.image.width), Int32(first.image.height), &animOptions)
        else { throw .libraryFailure(format: .webp, reason: "cannot create the animation encoder") }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp = 0
        for frame in frames {
            try withPicture(of: frame.image) { (picture) throws(ImageEncodingError) in
                guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
                    throw animationFailure(encoder)
                }
            }
            timestamp += max(0, Int(frame.duration / .milliseconds(1)))
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw animationFailure(encoder)
        }
        var assembled = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &assembled) != 0 else { throw animationFailure(encoder) }
        defer { WebPDataClear(&assembled) }
        let data = Data(bytes: assembled.bytes, count: assembled.size)
        return try addingMetadata(to: data, of: first.image, options: options)
    }

    /// libwebp's configuration for `options`, validated.
    private static func makeConfig(_ options: WebPEncodeOptions) throws(ImageEncodingError) -> WebPConfig {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("WebP quality must be in 1...100, not \(options.quality)")
        }
        guard (0...6).contains(options.method) else {
            throw .invalidOption("WebP method must be in 0...6, not \(options.method)")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw .libraryFailure(format: .webp, reason: "libwebp version mismatch")
        }
        config.quality = Float(options.quality)
        config.method = Int32(options.method)
        config.lossless = options.lossless ? 1 : 0
        // Keep the colour of fully transparent pixels in lossless output: samples stay exactly as given.
        if options.lossless { config.exact = 1 }
        guard WebPValidateConfig(&config) != 0 else { throw .invalidOption("libwebp refused the settings") }
        return config
    }

    /// Runs `body` with a `WebPPicture` holding `image`'s pixels as 8-bit RGB or RGBA.
    private static func withPicture<R>(
        of image: Image, _ body: (inout WebPPicture) throws(ImageEncodingError) -> R
    ) throws(ImageEncodingError) -> R {
        try checkSize(image)
        let hasAlpha = image.pixelFormat.layout.hasAlpha
        let source = image.converted(to: hasAlpha ? .rgba8 : .rgb8)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .libraryFailure(format: .webp, reason: "libwebp version mismatch")
        }
        picture.use_argb = 1
        picture.width = Int32(source.width)
        picture.height = Int32(source.height)
        defer { WebPPictureFree(&picture) }
        let imported = source.withUnsafeBytes { pixels in
            let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let stride = Int32(source.bytesPerRow)
            return hasAlpha
                ? WebPPictureImportRGBA(&picture, base, stride) : WebPPictureImportRGB(&picture, base, stride)
        }
        guard imported != 0 else { throw .libraryFailure(format: .webp, reason: "out of memory importing pixels") }
        return try body(&picture)
    }

    /// `bitstream` with `ICCP` and `EXIF` chunks added, when the options ask and the image has them.
    private static func addingMetadata(
        to bitstream: Data, of image: Image, options: WebPEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        let icc = options.includesICCProfile ? image.metadata.iccProfile : nil
        let exif =
            options.includesEXIF
            ? EXIFOrientationWriter.block(image.metadata.exif, orientation: image.metadata.orientation) : nil
        guard icc != nil || exif != nil else { return bitstream }
        return try bitstream.withTypedBytes { (bytes) throws(ImageEncodingError) -> Data in
            var input = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let mux = WebPMuxCreate(&input, 1) else {
                throw .libraryFailure(format: .webp, reason: "cannot reopen the bitstream to add metadata")
            }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in [("ICCP", icc), ("EXIF", exif)] {
                guard let payload else { continue }
                let status = payload.withUnsafeBufferPointer { buffer in
                    var chunk = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1)
                }
                guard status == WEBP_MUX_OK else {
                    throw .libraryFailure(format: .webp, reason: "cannot add the \(fourCC) chunk")
                }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else {
                throw .libraryFailure(format: .webp, reason: "cannot assemble the file with its metadata")
            }
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }

    private static func checkSize(_ image: Image) throws(ImageEncodingError) {
        guard image.width <= maxDimension, image.height <= maxDimension else {
            throw .invalidOption(
                "WebP stores at most \(maxDimension) x \(maxDimension) pixels, not \(image.width) x \(image.height)")
        }
    }

    private static func failure(_ code: WebPEncodingError) -> ImageEncodingError {
        .libraryFailure(format: .webp, reason: "libwebp encoder error \(code.rawValue)")
    }

    private static func animationFailure(_ encoder: OpaquePointer) -> ImageEncodingError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return .libraryFailure(format: .webp, reason: message)
    }
}
