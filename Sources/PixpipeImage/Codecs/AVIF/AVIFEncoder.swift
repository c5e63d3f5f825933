import CPixpipeAVIF
import Foundation

/// Writes still AVIF images and image sequences with libavif's aom encoder.
///
/// Colour is signalled as sRGB (BT.709 primaries, sRGB transfer) with BT.601 YUV, as `avifenc` does for
/// PNG and JPEG input; gray images are stored as monochrome (4:0:0). The ICC profile and the EXIF block
/// (its orientation rewritten to ``ImageMetadata/orientation``, as for JPEG) are written when the
/// options ask for them, and the orientation is also written as `irot`/`imir`, which AVIF readers apply,
/// and ``ImageMetadata/cleanAperture`` as `clap` (see ``AVIFCleanAperture``).
enum AVIFEncoder {
    /// Encodes one image.
    static func encode(_ image: Image, options: AVIFEncodeOptions) throws(ImageEncodingError) -> Data {
        try encodeFrames([(image, 0)], options: options, sequence: false)
    }

    /// Encodes `frames` as an `avis` image sequence with a millisecond timescale. AVIF stores no loop
    /// count (players loop forever), so the caller's loop count is not written.
    static func encodeAnimation(_ frames: [AnimationFrame], options: AVIFEncodeOptions) throws(ImageEncodingError)
        -> Data
    {
        let timed = frames.map { frame in
            let (seconds, attoseconds) = frame.duration.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            return (frame.image, UInt64(max(milliseconds, 1)))
        }
        return try encodeFrames(timed, options: options, sequence: true)
    }

    private static func encodeFrames(
        _ frames: [(image: Image, milliseconds: UInt64)], options: AVIFEncodeOptions, sequence: Bool
    ) throws(ImageEncodingError) -> Data {
        try validate(options)
        guard let encoder = pxp_avifEncoderCreate() else {
            throw failure(pxp_avif_load_error().map { String(cString: $0) } ?? "libavif could not create an encoder")
        }
        defer { pxp_avifEncoderDestroy(encoder) }
        encoder.pointee.maxThreads = Int32(min(ProcessInfo.processInfo.activeProcessorCount, 8))
        encoder.pointee.speed = Int32(options.speed)
        encoder.pointee.minQuantizer = options.quantizer
        encoder.pointee.maxQuantizer = options.quantizer
        encoder.pointee.minQuantizerAlpha = options.quantizer
        encoder.pointee.maxQuantizerAlpha = options.quantizer
        encoder.pointee.timescale = 1000
        for frame in frames {
            let avif = try makeImage(frame.image, options: options)
            defer { pxp_avifImageDestroy(avif) }
            let flags = sequence ? AVIF_ADD_IMAGE_FLAG_NONE.rawValue : AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue
            let result = pxp_avifEncoderAddImage(encoder, avif, frame.milliseconds, flags)
            guard result == AVIF_RESULT_OK else { throw failure(result, encoder) }
        }
        var output = avifRWData(data: nil, size: 0)
        defer { pxp_avifRWDataFree(&output) }
        let result = pxp_avifEncoderFinish(encoder, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else { throw failure(result, encoder) }
        return Data(bytes: bytes, count: output.size)
    }

    private static func validate(_ options: AVIFEncodeOptions) throws(ImageEncodingError) {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("AVIF quality \(options.quality) is outside 1...100")
        }
        guard (0...10).contains(options.speed) else {
            throw .invalidOption("AVIF speed \(options.speed) is outside 0...10")
        }
        guard options.bitDepth == 8 || options.bitDepth == 10 else {
            throw .invalidOption("AVIF bit depth \(options.bitDepth) is not 8 or 10")
        }
    }

    /// An avifImage holding `image` as YUV, with its metadata; the caller destroys it.
    private static func makeImage(_ image: Image, options: AVIFEncodeOptions) throws(ImageEncodingError)
        -> UnsafeMutablePointer<avifImage>
    {
        let isGray = !image.pixelFormat.layout.isColor
        let yuvFormat: avifPixelFormat =
            if isGray {
                AVIF_PIXEL_FORMAT_YUV400
            } else if options.isLossless {
                AVIF_PIXEL_FORMAT_YUV444
            } else {
                switch options.chromaSubsampling {
                case .s444: AVIF_PIXEL_FORMAT_YUV444
                case .s422: AVIF_PIXEL_FORMAT_YUV422
                case .s420: AVIF_PIXEL_FORMAT_YUV420
                }
            }
        guard
            let avif = pxp_avifImageCreate(
                UInt32(image.width), UInt32(image.height), UInt32(options.bitDepth), yuvFormat)
        else { throw failure("libavif could not create an image") }
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        avif.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        avif.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        // Lossless colour needs the identity matrix (libavif allows it with 4:4:4 only); gray needs none:
        // with R = G = B every matrix gives Y = the gray level, stored at quantizer 0 as it is.
        avif.pointee.matrixCoefficients = avifMatrixCoefficients(
            options.isLossless && !isGray ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        do {
            try fillPlanes(avif, from: image)
        } catch {
            pxp_avifImageDestroy(avif)
            throw error
        }
        writeMetadata(image.metadata, to: avif, options: options)
        return avif
    }

    /// Converts the pixels to YUV (and alpha) with libavif; gray is widened to RGB first.
    private static func fillPlanes(_ avif: UnsafeMutablePointer<avifImage>, from image: Image)
        throws(ImageEncodingError)
    {
        let layout: PixelLayout = image.pixelFormat.layout.hasAlpha ? .rgba : .rgb
        let target = PixelFormat(layout: layout, bitsPerSample: image.pixelFormat.bitsPerSample)
        var source = image.pixelFormat == target ? image : image.converted(to: target)
        var rgb = avifRGBImage()
        pxp_avifRGBImageSetDefaults(&rgb, avif)
        rgb.depth = UInt32(target.bitsPerSample)
        rgb.format = layout == .rgba ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
        rgb.rowBytes = UInt32(source.bytesPerRow)
        let result = source.withUnsafeMutableBytes { raw in
            rgb.pixels = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return pxp_avifImageRGBToYUV(avif, &rgb)
        }
        guard result == AVIF_RESULT_OK else { throw failure(result, nil) }
    }

    private static func writeMetadata(
        _ metadata: ImageMetadata, to avif: UnsafeMutablePointer<avifImage>, options: AVIFEncodeOptions
    ) {
        if options.includesICCProfile, let profile = metadata.iccProfile, !profile.isEmpty {
            pxp_avifImageSetProfileICC(avif, profile, profile.count)
        }
        if options.includesEXIF,
            let exif = EXIFOrientationWriter.block(metadata.exif, orientation: metadata.orientation)
        {
            pxp_avifImageSetMetadataExif(avif, exif, exif.count)
        }
        // Set after the EXIF block, which libavif also reads an orientation from.
        AVIFTransforms.apply(metadata.orientation, to: &avif.pointee)
        AVIFCleanAperture.apply(metadata.cleanAperture, to: &avif.pointee)
    }

    private static func failure(_ message: String) -> ImageEncodingError {
        .libraryFailure(format: .avif, reason: message)
    }

    private static func failure(_ result: avifResult, _ encoder: UnsafeMutablePointer<avifEncoder>?)
        -> ImageEncodingError
    {
        var reason = String(cString: pxp_avifResultToString(result))
        if let encoder {
            let detail = withUnsafeBytes(of: encoder.pointee.diag.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !detail.isEmpty { reason += ": \(detail)" }
        }
        return failure(reason)
    }
}
