extension PNGDecoder {
    /// Proves a PNG whole without keeping its pixels: libpng inflates every row and checks every CRC, as a
    /// decode does, but each row lands in one reused row buffer instead of an image-sized one.
    ///
    /// The same libpng calls in the same order as ``decode(_:options:)`` (interlaced files read each of the
    /// seven passes over every row, as `png_read_image` does), around the same checks (``prepare(_:header:options:)``
    /// before the rows, ``finish(_:header:pixelFailure:options:)`` after), so every file a decode refuses is
    /// refused with the same error, and the warnings and metadata are the decode's.
    static func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo
    {
        let reader = try PNGReader(bytes: bytes)
        let header = try reader.readHeader()
        let (output, _) = try prepare(reader, header: header, options: options)
        let pixelFailure = readRowsDiscarding(reader, header: header, output: output)
        let metadata = try finish(reader, header: header, pixelFailure: pixelFailure, options: options)
        return ImageInfo(
            format: .png, width: header.width, height: header.height, pixelFormat: output.pixelFormat,
            metadata: metadata)
    }

    /// How many row reads one call to libpng's row loop makes: the pointer list repeats one buffer this
    /// many times, so the calls per image stay few without a pointer per image row.
    private static let rowsPerCall = 64

    /// Reads every row of every pass into one row buffer; returns the failure instead of throwing, with the
    /// rows completed before it counted as a decode counts them (none for an interlaced image).
    private static func readRowsDiscarding(
        _ reader: PNGReader, header: PNGReader.Header, output: PNGReader.Output
    ) -> RowFailure? {
        let row = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, output.bytesPerRow), alignment: 16)
        defer { row.deallocate() }
        // The buffer is never empty, so its base address exists.
        let base = row.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let total = header.height * output.passes
        let pointers = [UnsafeMutablePointer<UInt8>?](repeating: base, count: max(1, min(total, rowsPerCall)))
        var done = 0
        while done < total {
            let count = min(pointers.count, total - done)
            do throws(PNGReader.RowFailure) {
                try reader.readRows(count == pointers.count ? pointers : Array(pointers.prefix(count)))
            } catch {
                return RowFailure(error: error.error, rowsRead: output.passes > 1 ? 0 : done + error.rowsRead)
            }
            // After the last row libpng may stop early on far too much trailing data; nothing is left to read.
            if reader.stoppedAfterLastRow { return nil }
            done += count
        }
        return nil
    }
}
