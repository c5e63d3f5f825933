import CPixpipeImage

/// Decodes JPEG through the system libjpeg-turbo.
///
/// Output is `.gray8` for one-channel files and `.rgb8` for every other (YCbCr, RGB, CMYK, YCCK; CMYK
/// through its embedded profile, see ``JPEGCMYKConversion``), with libjpeg's defaults (ISLOW DCT, fancy upsampling), so full-size pixels equal libjpeg-turbo's
/// reference decode. 12-bit and lossless files are refused as unsupported features.
enum JPEGDecoder {
    /// Rows decoded between two checks for warnings, so strict decoding of damaged data stops early.
    static let rowsPerBatch = 64

    /// Decodes `bytes` at the scale `options.jpegScale` asks for.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try decode(JPEGReader(bytes: bytes, pixelLimit: options.pixelLimit), options: options)
    }

    /// Decodes from a reader that has read the header and nothing more.
    static func decode(_ reader: JPEGReader, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try options.enforce(reader.warnings, format: .jpeg)
        try checkPrecision(reader)
        var metadata = reader.metadata()
        let numerator = options.jpegScale.numerator(width: Int(reader.header.width), height: Int(reader.header.height))
        let space = reader.outputSpace
        let (width, height) = try reader.configure(scaleNumerator: numerator, space: space)
        // The limit applies to what is allocated, so a reduced-size decode of a huge file can pass.
        try options.checkPixels(width: width, height: height)
        guard width > 0, height > 0 else { throw .corrupt(format: .jpeg, reason: "image has no pixels") }

        _ = try reader.start()
        try options.enforce(reader.warnings, format: .jpeg)
        let format = reader.outputPixelFormat
        // Every byte is written by the decoder before the array is used, so it is not zeroed first: that
        // would be one more pass over the whole image (about 4% of a full-size decode).
        let byteCount = width * height * format.bytesPerPixel
        var cmykConversion = JPEGCMYKConversion.naive
        if space == .cmyk {
            let made = JPEGCMYKConversion.make(iccProfile: metadata.iccProfile, inverted: reader.header.saw_adobe != 0)
            cmykConversion = made.conversion
            if let warning = made.warning { metadata.warnings.append(warning) }
            // The pixels are sRGB now; the CMYK profile described the file's samples.
            metadata.iccProfile = nil
        }
        var failure: ImageDecodingError?
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            HugePageAdvice.advise(raw)
            do throws(ImageDecodingError) {
                if space == .cmyk {
                    try readCMYKRows(
                        reader, into: raw, width: width, height: height, conversion: cmykConversion, options: options)
                } else {
                    try readRows(
                        reader, into: raw, stride: width * format.bytesPerPixel, height: height, options: options)
                }
                initializedCount = byteCount
            } catch {
                failure = error
                initializedCount = 0
            }
        }
        if let failure { throw failure }
        var image = Image(width: width, height: height, pixelFormat: format, pixels: pixels)
        if let damagedTail = try finish(reader, options: options) { metadata.warnings.append(damagedTail) }
        metadata.warnings = reader.warnings + metadata.warnings
        image.metadata = metadata
        return image
    }

    /// Reads the header only: size, pixel format and metadata, without decompressing. The metadata's
    /// warnings are those of the header and the ICC segments; scan data is not read, so junk before RSTn,
    /// damaged entropy-coded data, junk before EOI and truncation past the header are not seen.
    static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        try info(JPEGReader(bytes: bytes, pixelLimit: nil))
    }

    /// What the header of `reader` says; the reader can still decode afterwards.
    static func info(_ reader: JPEGReader) throws(ImageDecodingError) -> ImageInfo {
        try checkPrecision(reader)
        var metadata = reader.metadata()
        metadata.warnings = reader.warnings
        var info = ImageInfo(
            format: .jpeg, width: Int(reader.header.width), height: Int(reader.header.height),
            pixelFormat: reader.outputPixelFormat, metadata: metadata)
        info.storedComponents = Int(reader.header.components)
        info.storedColorModel =
            switch reader.header.color_space {
            case Int32(PXP_JPEG_SPACE_GRAY): .gray
            case Int32(PXP_JPEG_SPACE_RGB): .rgb
            case Int32(PXP_JPEG_SPACE_YCBCR): .ycbcr
            case Int32(PXP_JPEG_SPACE_CMYK): .cmyk
            case Int32(PXP_JPEG_SPACE_YCCK): .ycck
            default: .other
            }
        return info
    }

    /// Reads to the end of the image once every row is decoded, then applies the strictness to every warning.
    /// A damaged tail fails in strict mode; in lenient mode it is returned as a warning, for the caller to add
    /// after libjpeg's own.
    static func finish(_ reader: JPEGReader, options: DecodeOptions) throws(ImageDecodingError) -> DecodeWarning? {
        var damagedTail: DecodeWarning?
        do {
            try reader.finish()
        } catch {
            // Every row is already decoded: in lenient mode a damaged tail is only worth a warning.
            if options.strictness == .strict { throw error }
            damagedTail = JPEGWarningTable.damagedTail.warning(error.description)
        }
        try options.enforce(reader.warnings, format: .jpeg)
        return damagedTail
    }

    /// Refuses what the 8-bit library would misread; Debian's build already stops 12-bit in the header.
    static func checkPrecision(_ reader: JPEGReader) throws(ImageDecodingError) {
        let precision = Int(reader.header.data_precision)
        if precision != 8 { throw .unsupportedFeature(format: .jpeg, feature: "\(precision)-bit samples") }
    }

    /// Decodes gray or RGB rows straight into `pixels`, every row of it.
    private static func readRows(
        _ reader: JPEGReader, into pixels: UnsafeMutableRawBufferPointer, stride: Int, height: Int,
        options: DecodeOptions
    ) throws(ImageDecodingError) {
        while reader.nextRow < height {
            let row = reader.nextRow
            let count = min(rowsPerBatch, height - row)
            let window = UnsafeMutableRawBufferPointer(rebasing: pixels[(row * stride)..<((row + count) * stride)])
            if try reader.readRows(into: window, stride: stride, count: count) == 0 {
                throw .corrupt(format: .jpeg, reason: "decoder produced no rows")
            }
            try options.enforce(reader.warnings, format: .jpeg)
        }
    }

    /// Decodes CMYK rows into a scratch buffer and converts each batch to RGB into `pixels`, every row of it.
    private static func readCMYKRows(
        _ reader: JPEGReader, into pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int,
        conversion: JPEGCMYKConversion, options: DecodeOptions
    ) throws(ImageDecodingError) {
        let inverted = reader.header.saw_adobe != 0
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: width * 4 * rowsPerBatch, alignment: 1)
        defer { scratch.deallocate() }
        while reader.nextRow < height {
            let row = reader.nextRow
            let read = try reader.readRows(into: scratch, stride: width * 4, count: min(rowsPerBatch, height - row))
            if read == 0 { throw .corrupt(format: .jpeg, reason: "decoder produced no rows") }
            let target = UnsafeMutableRawBufferPointer(
                rebasing: pixels[(row * width * 3)..<((row + read) * width * 3)])
            conversion.convert(
                UnsafeRawBufferPointer(scratch), into: target, pixelCount: width * read, inverted: inverted)
            try options.enforce(reader.warnings, format: .jpeg)
        }
    }
}
