/// Resizes a non-interlaced PNG while libpng decodes it, holding a band of source rows, never the image.
///
/// Rows are read in bands of about 1 MiB and handed to the resampler, which asks for each source row
/// once, in order (see ``Resampler/prepareForSinglePass()``). Peak memory is the band, the resampler's
/// ring (one vertical window) and the output, whatever the source's height.
struct PNGStreamingResizer {
    /// The reader, positioned after the header.
    let reader: PNGReader
    /// What the header said.
    let header: PNGReader.Header
    /// Filter, linear light and strictness.
    let options: ThumbnailOptions

    /// The source resized to `width` x `height`, in the stored orientation, with the PNG's metadata.
    ///
    /// In lenient mode damaged or truncated image data gives zero rows from the failure on, with a warning.
    func resize(toWidth width: Int, height: Int) throws(ImageDecodingError) -> Image {
        try DecodeOptions(strictness: options.strictness).enforce(reader.warnings, format: .png)
        let output = try reader.prepareOutput(keeps16Bit: false)
        guard output.bytesPerRow == header.width * output.pixelFormat.bytesPerPixel else {
            throw .corrupt(format: .png, reason: "libpng reported \(output.bytesPerRow) bytes per row")
        }
        var resampler = Resampler(
            sourceWidth: header.width, sourceHeight: header.height, outputWidth: width, outputHeight: height,
            format: output.pixelFormat, filter: options.filter, linearLight: options.linearLight)
        resampler.prepareForSinglePass()
        let rows = PNGRowBand(reader: reader, bytesPerRow: output.bytesPerRow, height: header.height)
        var image = Image(width: width, height: height, pixelFormat: output.pixelFormat)
        image.withUnsafeMutableBytes { destination in
            guard let base = destination.baseAddress else { return }
            resampler.resampleRows(0..<height, sourceRow: { rows.row($0) }, destination: base)
        }
        // Rows the resampler never needed (a box filter can skip some) are still read, to reach the end chunks.
        rows.readRemainingRows()

        var metadata = ImageMetadata(
            sourceFormat: .png, sourceBitDepth: header.bitDepth, isInterlaced: header.isInterlaced)
        var chunks = header.chunks
        if let failure = rows.failure {
            guard options.strictness == .lenient else { throw failure.error }
            let rowFailure = PNGDecoder.RowFailure(error: failure.error, rowsRead: failure.rowsRead)
            metadata.warnings.append(rowFailure.warning(height: header.height))
        } else {
            do {
                if let end = try reader.readEnd() { chunks = end }
            } catch {
                guard options.strictness == .lenient else { throw error }
                metadata.warnings.append(PNGDecoder.RowFailure(error: error, rowsRead: header.height).warning())
            }
        }
        try DecodeOptions(strictness: options.strictness).enforce(reader.warnings, format: .png)
        chunks.apply(to: &metadata)
        metadata.warnings = reader.warnings + metadata.warnings
        image.metadata = metadata
        return image
    }
}
