import CPixpipeAVIF

/// Turns libavif's decoded planes into an ``Image`` exactly as `avifdec` writes its PNGs.
///
/// `avifdec` 0.11 converts with `avifImageYUVToRGB` at its defaults (automatic chroma upsampling, libyuv
/// where it applies, straight alpha: a premultiplied file is unpremultiplied) into RGB, or RGBA when the
/// file has alpha, at 8 bits or, with `--depth 16`, 16 bits; an 8-bit monochrome file without alpha is
/// written as gray from the luma plane as stored. Deeper monochrome files become RGB like colour ones.
enum AVIFPixels {
    /// The pixel format a decode of an image with these properties produces.
    static func pixelFormat(yuvFormat: avifPixelFormat, depth: Int, hasAlpha: Bool, keeps16Bit: Bool)
        -> PixelFormat
    {
        if yuvFormat == AVIF_PIXEL_FORMAT_YUV400, !hasAlpha, depth == 8 { return .gray8 }
        return PixelFormat(layout: hasAlpha ? .rgba : .rgb, bitsPerSample: depth > 8 && keeps16Bit ? 16 : 8)
    }

    /// The decoded image in `handle`, with `metadata`; checks the pixel limit before allocating.
    static func image(
        _ handle: AVIFDecoderHandle, metadata: ImageMetadata, options: DecodeOptions
    ) throws(ImageDecodingError) -> Image {
        let avif = handle.image
        let width = Int(avif.pointee.width)
        let height = Int(avif.pointee.height)
        guard width > 0, height > 0 else { throw .corrupt(format: .avif, reason: "the image has no pixels") }
        try options.checkPixels(width: width, height: height)
        let format = pixelFormat(
            yuvFormat: avif.pointee.yuvFormat, depth: Int(avif.pointee.depth), hasAlpha: avif.pointee.alphaPlane != nil,
            keeps16Bit: options.keeps16Bit)
        let rowBytes = width * format.bytesPerPixel
        var failure: avifResult = AVIF_RESULT_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            count = rowBytes * height
            if format == .gray8 {
                copyLuma(avif.pointee, into: buffer, width: width, height: height)
            } else {
                var rgb = avifRGBImage()
                pxp_avifRGBImageSetDefaults(&rgb, avif)
                rgb.depth = UInt32(format.bitsPerSample)
                rgb.format = format.layout.hasAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
                rgb.pixels = buffer.baseAddress
                rgb.rowBytes = UInt32(rowBytes)
                failure = pxp_avifImageYUVToRGB(avif, &rgb)
                if failure != AVIF_RESULT_OK { buffer.initialize(repeating: 0) }
            }
        }
        guard failure == AVIF_RESULT_OK else { throw handle.failure(failure) }
        return Image(width: width, height: height, pixelFormat: format, pixels: pixels, metadata: metadata)
    }

    /// Copies the 8-bit luma plane row by row (libavif pads its rows).
    private static func copyLuma(
        _ avif: avifImage, into buffer: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        let stride = Int(avif.yuvRowBytes.0)
        guard let plane = avif.yuvPlanes.0, let destination = buffer.baseAddress else { return }
        for row in 0..<height {
            (destination + row * width).update(from: plane + row * stride, count: width)
        }
    }

    /// What libavif read besides the pixels: depth, ICC profile, colour code points, EXIF, `irot`/`imir` as
    /// orientation and `clap` as the clean aperture.
    static func metadata(of avif: avifImage, warnings: [DecodeWarning]) -> ImageMetadata {
        var metadata = ImageMetadata(sourceFormat: .avif, sourceBitDepth: Int(avif.depth), warnings: warnings)
        metadata.orientation = AVIFTransforms.orientation(of: avif)
        let (aperture, apertureWarning) = AVIFCleanAperture.rectangle(of: avif)
        metadata.cleanAperture = aperture
        if let apertureWarning { metadata.warnings.append(apertureWarning) }
        if avif.icc.size > 0, let data = avif.icc.data {
            metadata.iccProfile = Array(UnsafeBufferPointer(start: data, count: avif.icc.size))
        }
        metadata.cicp = ColorCICP(
            colorPrimaries: Int(avif.colorPrimaries), transferCharacteristics: Int(avif.transferCharacteristics),
            matrixCoefficients: Int(avif.matrixCoefficients), fullRange: avif.yuvRange == AVIF_RANGE_FULL)
        if avif.exif.size > 0, let data = avif.exif.data {
            metadata.exif = tiffBlock(Array(UnsafeBufferPointer(start: data, count: avif.exif.size)))
        }
        return metadata
    }

    /// The EXIF payload from its TIFF byte-order mark on (libavif may leave an `Exif\0\0` or offset
    /// prefix in front), or `nil` when no TIFF header is near the start.
    static func tiffBlock(_ payload: [UInt8]) -> [UInt8]? {
        let marks: [[UInt8]] = [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A]]
        for start in 0..<min(payload.count, 16) {
            let rest = payload[start...]
            if marks.contains(where: { rest.starts(with: $0) }) { return Array(rest) }
        }
        return nil
    }
}
