import CPixpipeImage

/// Decodes PNG through libpng into the stored samples.
///
/// Palettes and tRNS are expanded (tRNS becomes an alpha channel), 1/2/4-bit gray is widened by bit
/// replication, 16-bit samples are kept in native byte order when ``DecodeOptions/keeps16Bit`` is set
/// and otherwise reduced to their high byte. No gamma or colour correction is applied; gray stays gray.
/// Adam7 images are de-interlaced. CRC errors in any chunk are errors.
enum PNGDecoder {
    /// Decodes a whole PNG; the pixel limit is checked against the header before any pixel buffer exists.
    ///
    /// In lenient mode, damage or truncation in the image data gives the rows decoded so far (missing
    /// rows zero) with a ``DecodeWarning``; damage before the image data always throws. What libpng warns
    /// about is classified by ``PNGWarningTable``: benign anomalies (a damaged ancillary chunk, data after
    /// the last row) decode in both modes with a warning. Far more compressed data after the last row than
    /// a stream's end (a decompression bomb behind a small image) is not inflated: the complete rows are
    /// kept with a benign warning, but any metadata chunk stored after the image data is lost.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let reader = try PNGReader(bytes: bytes)
        return try decode(reader, header: reader.readHeader(), bytes: bytes, options: options)
    }

    /// Decodes the rest of a PNG whose `header` `reader` has just read. `bytes`, the whole file when
    /// `reader` reads from memory, lets the common shapes take ``PNGFastPath``.
    static func decode(
        _ reader: PNGReader, header: PNGReader.Header, bytes: UnsafeRawBufferPointer? = nil, options: DecodeOptions
    ) throws(ImageDecodingError) -> Image {
        let (output, byteCount) = try prepare(reader, header: header, options: options)
        let fastPath = bytes.flatMap { PNGFastPath(bytes: $0, reader: reader, header: header, output: output) }
        var pixelFailure: RowFailure?
        var tookFastPath = false
        // Not zeroed first (a whole extra pass over the image): libpng writes every row, and what a
        // failure leaves unwritten is zeroed afterwards. Interlaced passes fill rows piecemeal, so
        // their buffer starts zeroed. The fast path inflates into the same buffer, one filter byte per row
        // longer than the image (the image's rows end up at its start).
        let capacity = max(byteCount, fastPath?.bufferCount ?? 0)
        let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            initializedCount = byteCount
            if let fastPath, fastPath.decode(into: raw) {
                tookFastPath = true
                return
            }
            if output.passes > 1 { raw.initializeMemory(as: UInt8.self, repeating: 0) }
            pixelFailure = readPixels(reader, into: raw, header: header, output: output)
            if let pixelFailure, output.passes == 1 {
                let written = min(byteCount, pixelFailure.rowsRead * output.bytesPerRow)
                UnsafeMutableRawBufferPointer(rebasing: raw[written..<byteCount])
                    .initializeMemory(as: UInt8.self, repeating: 0)
            }
        }
        let metadata =
            tookFastPath
            ? try finishFastPath(reader, header: header, options: options)
            : try finish(reader, header: header, pixelFailure: pixelFailure, options: options)
        return Image(
            width: header.width, height: header.height, pixelFormat: output.pixelFormat, pixels: pixels,
            metadata: metadata)
    }

    /// The checks before any pixel is read (pixel limit, warnings of the chunks so far, the output rows) and
    /// the size of the whole image's buffer; shared by the decode and ``verify(_:options:)`` so both refuse
    /// the same files with the same errors.
    static func prepare(
        _ reader: PNGReader, header: PNGReader.Header, options: DecodeOptions
    ) throws(ImageDecodingError) -> (output: PNGReader.Output, byteCount: Int) {
        try options.checkPixels(width: header.width, height: header.height)
        try options.enforce(reader.warnings, format: .png)
        let output = try reader.prepareOutput(keeps16Bit: options.keeps16Bit)
        guard output.bytesPerRow == header.width * output.pixelFormat.bytesPerPixel else {
            throw .corrupt(format: .png, reason: "libpng reported \(output.bytesPerRow) bytes per row")
        }
        // Only reachable without a pixel limit: a buffer size that does not even fit in an Int.
        let (byteCount, overflow) = output.bytesPerRow.multipliedReportingOverflow(by: header.height)
        if overflow { throw .tooLarge(width: header.width, height: header.height, limit: Int.max) }
        return (output, byteCount)
    }

    /// After the rows: strict mode throws `pixelFailure`, lenient mode keeps it as a warning; then the chunks
    /// after the image data, the warnings check again, and the image's metadata.
    static func finish(
        _ reader: PNGReader, header: PNGReader.Header, pixelFailure: RowFailure?, options: DecodeOptions
    ) throws(ImageDecodingError) -> ImageMetadata {
        var warnings: [DecodeWarning] = []
        var chunks = header.chunks
        if let pixelFailure {
            guard options.strictness == .lenient else { throw pixelFailure.error }
            warnings.append(pixelFailure.warning(height: header.height, isInterlaced: header.isInterlaced))
        } else {
            do {
                if let end = try reader.readEnd() { chunks = end }
            } catch {
                guard options.strictness == .lenient else { throw error }
                warnings.append(PNGDecoder.RowFailure(error: error, rowsRead: header.height).warning())
            }
        }

        try options.enforce(reader.warnings, format: .png)
        var metadata = baseMetadata(header)
        chunks.apply(to: &metadata)
        metadata.warnings = reader.warnings + warnings
        return metadata
    }

    /// After ``PNGFastPath`` read the rows: it only takes files whose image data runs straight into a
    /// clean IEND, so the chunks and warnings are those libpng gave for the chunks before the image data.
    private static func finishFastPath(
        _ reader: PNGReader, header: PNGReader.Header, options: DecodeOptions
    ) throws(ImageDecodingError) -> ImageMetadata {
        try options.enforce(reader.warnings, format: .png)
        var metadata = baseMetadata(header)
        header.chunks.apply(to: &metadata)
        metadata.warnings = reader.warnings
        return metadata
    }

    /// Reads the header and the chunks before the image data, without decoding pixels. The metadata's
    /// warnings are those of the chunks before the image data; the image data and what follows it are not
    /// read, so damage there, data after the last row and a damaged late chunk are not seen.
    static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let reader = try PNGReader(bytes: bytes)
        let header = try reader.readHeader()
        var metadata = baseMetadata(header)
        header.chunks.apply(to: &metadata)
        metadata.warnings = reader.warnings
        return ImageInfo(
            format: .png, width: header.width, height: header.height, pixelFormat: defaultPixelFormat(header),
            metadata: metadata)
    }

    /// The pixel format a decode that keeps 16 bits produces for `header`.
    static func defaultPixelFormat(_ header: PNGReader.Header) -> PixelFormat {
        let layout: PixelLayout
        switch header.colorType {
        case Int32(PXP_PNG_COLOR_GRAY): layout = header.hasTransparency ? .grayAlpha : .gray
        case Int32(PXP_PNG_COLOR_GRAY_ALPHA): layout = .grayAlpha
        case Int32(PXP_PNG_COLOR_RGBA): layout = .rgba
        default: layout = header.hasTransparency ? .rgba : .rgb  // RGB and palette
        }
        return PixelFormat(layout: layout, bitsPerSample: header.bitDepth == 16 ? 16 : 8)
    }

    static func baseMetadata(_ header: PNGReader.Header) -> ImageMetadata {
        ImageMetadata(sourceFormat: .png, sourceBitDepth: header.bitDepth, isInterlaced: header.isInterlaced)
    }

    /// Reads every row into `raw`; returns the failure instead of throwing so the caller can be lenient.
    private static func readPixels(
        _ reader: PNGReader, into raw: UnsafeMutableRawBufferPointer, header: PNGReader.Header,
        output: PNGReader.Output
    ) -> RowFailure? {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return RowFailure(error: .corrupt(format: .png, reason: "no pixel buffer"), rowsRead: 0)
        }
        let rows: [UnsafeMutablePointer<UInt8>?] = (0..<header.height).map { base + $0 * output.bytesPerRow }
        if output.passes > 1 {
            // Rows of an interlaced image fill in over seven passes, so a row count means little here.
            do throws(ImageDecodingError) {
                try reader.readImage(rows)
            } catch {
                return RowFailure(error: error, rowsRead: 0)
            }
            return nil
        }
        do throws(PNGReader.RowFailure) {
            try reader.readRows(rows)
        } catch {
            return RowFailure(error: error.error, rowsRead: error.rowsRead)
        }
        return nil
    }
}

extension PNGDecoder {
    /// A failure while reading pixels or trailing chunks, kept so lenient mode can turn it into a warning.
    struct RowFailure {
        /// The error strict mode throws.
        var error: ImageDecodingError
        /// Rows completed before the failure.
        var rowsRead: Int
        /// The warning lenient mode records, through ``PNGWarningTable``; the message says how much of the
        /// image was decoded. `height` is `nil` for a failure after the image data.
        func warning(height: Int? = nil, isInterlaced: Bool = false) -> DecodeWarning {
            let reason: String
            switch error {
            case .truncated(_, let message), .corrupt(_, let message): reason = message
            default: reason = error.description
            }
            let rule = PNGWarningTable.rule(for: error, afterImageData: height == nil)
            guard let height else { return rule.warning("\(reason) after the image data") }
            let progress =
                isInterlaced
                ? "during the interlaced passes; missing samples are zero"
                : "after \(rowsRead) of \(height) rows; missing rows are zero"
            return rule.warning("\(reason) \(progress)")
        }
    }
}
