extension JPEGDecoder {
    /// The warnings of a decode of `reader` at the scale `options.jpegScale` asks for, found without keeping
    /// its pixels: what ``decode(_:options:)`` would return as `metadata.warnings`, or throw, for the same
    /// reader, decoding every entropy-coded byte with less work.
    ///
    /// A YCbCr file is read as luma only (libjpeg still decodes the chroma blocks' entropy-coded data, but
    /// does not transform, upsample or colour-convert them), and on a one-scan Huffman file the rows are
    /// skipped (entropy-decoded, not transformed) rather than read; see `pxp_jpeg_decoder_configure_verification`.
    /// The steps and the checks between them are the decode's: the same warnings at the same points, so
    /// strict mode fails where and as the decode does. A CMYK file takes the decode itself, whose colour
    /// conversion may add a warning about its profile.
    static func verify(_ reader: JPEGReader, options: DecodeOptions) throws(ImageDecodingError) -> [DecodeWarning] {
        let space = reader.outputSpace
        guard space != .cmyk else { return try decode(reader, options: options).metadata.warnings }
        try options.enforce(reader.warnings, format: .jpeg)
        try checkPrecision(reader)
        // The decode reads the metadata here; the ICC profile's read is the part that can warn (once).
        _ = reader.iccProfile()
        let numerator = options.jpegScale.numerator(width: Int(reader.header.width), height: Int(reader.header.height))
        let (width, height) = try reader.configureForVerification(scaleNumerator: numerator, space: space)
        try options.checkPixels(width: width, height: height)
        guard width > 0, height > 0 else { throw .corrupt(format: .jpeg, reason: "image has no pixels") }

        let components = try reader.start()
        try options.enforce(reader.warnings, format: .jpeg)
        let stride = width * components
        let scratch = UnsafeMutableRawBufferPointer.allocate(
            byteCount: stride * min(rowsPerBatch, height), alignment: 16)
        defer { scratch.deallocate() }
        while reader.nextRow < height {
            let count = min(rowsPerBatch, height - reader.nextRow)
            if try reader.discardRows(into: scratch, stride: stride, count: count) == 0 {
                throw .corrupt(format: .jpeg, reason: "decoder produced no rows")
            }
            try options.enforce(reader.warnings, format: .jpeg)
        }
        let damagedTail = try finish(reader, options: options)
        return reader.warnings + (damagedTail.map { [$0] } ?? [])
    }
}
