import CPixpipeTIFF

/// Decodes the pages of an open ``TIFFHandle`` into images.
enum TIFFDecoder {
    /// Page `index` of `handle`, with `pageWarnings` (from the chain of directories) in its metadata.
    static func decode(
        _ handle: TIFFHandle, page index: Int, options: DecodeOptions, pageWarnings: [DecodeWarning] = []
    ) throws(ImageDecodingError) -> Image {
        try handle.select(page: index)
        let page = handle.page
        try options.checkPixels(width: Int(page.width), height: Int(page.height))
        let layout = try TIFFPageLayout(handle: handle, keeps16Bit: options.keeps16Bit)
        var warnings = pageWarnings + layout.warnings
        var image: Image
        switch layout.path {
        case .rgba:
            image = try readRGBA(handle, layout: layout, options: options, warnings: &warnings)
        case .samples:
            let rows = try TIFFRowBand(handle: handle, layout: layout)
            image = Image(width: layout.width, height: layout.height, pixelFormat: layout.output)
            let rowBytes = image.bytesPerRow
            image.withUnsafeMutableBytes { destination in
                // Strips stored as the image lays out its rows are decoded in place: no band, no copy.
                if rows.readsInPlace, let base = destination.baseAddress {
                    rows.readAll(into: base)
                    return
                }
                for row in 0..<layout.height {
                    (destination.baseAddress! + row * rowBytes).copyMemory(from: rows.row(row), byteCount: rowBytes)
                }
            }
            try collect(rows, height: layout.height, options: options, into: &warnings)
        }
        warnings += handle.takeWarnings()
        try options.enforce(warnings, format: .tiff)
        image.metadata = TIFFMetadata.metadata(of: handle, warnings: warnings)
        return image
    }

    /// Throws the band's first failure in strict mode; in lenient mode adds its warnings.
    static func collect(
        _ rows: TIFFRowBand, height: Int, options: DecodeOptions, into warnings: inout [DecodeWarning]
    ) throws(ImageDecodingError) {
        if let incomplete = rows.incomplete {
            guard options.strictness == .lenient else { throw incomplete.error }
            warnings.append(
                TIFFWarningTable.incompleteData.warning(
                    "\(incomplete.error); from row \(incomplete.row), as libtiff filled it"))
        }
        if let failure = rows.failure {
            guard options.strictness == .lenient else { throw failure.error }
            warnings.append(warning(for: failure.error, rowsRead: failure.rowsRead, height: height))
        }
    }

    /// The warning lenient mode keeps for a read failure after `rowsRead` whole rows.
    static func warning(for error: ImageDecodingError, rowsRead: Int, height: Int) -> DecodeWarning {
        let message = "\(error); rows \(rowsRead) to \(height - 1) are zero"
        if case .truncated = error { return TIFFWarningTable.truncatedData.warning(message) }
        return TIFFWarningTable.damagedData.warning(message)
    }

    /// The page through libtiff's RGBA interface: ABGR words, the page's own orientation requested so that
    /// nothing is flipped, associated alpha (libtiff premultiplies) un-premultiplied.
    private static func readRGBA(
        _ handle: TIFFHandle, layout: TIFFPageLayout, options: DecodeOptions, warnings: inout [DecodeWarning]
    ) throws(ImageDecodingError) -> Image {
        let width = layout.width
        let height = layout.height
        var raster = [UInt32](repeating: 0, count: width * height)
        handle.clearError()
        let ok = raster.withUnsafeMutableBufferPointer {
            pxp_tiff_read_rgba(handle.handle, UInt32(width), UInt32(height), $0.baseAddress, handle.page.orientation)
        }
        if ok == 0 {
            let error = TIFFWarningTable.readError(handle.errorMessage ?? "libtiff's RGBA interface failed")
            guard options.strictness == .lenient else { throw error }
            // The interface stops at the failing strip or tile: what it wrote before is whole.
            warnings.append(warning(for: error, rowsRead: 0, height: height))
        }
        let hasAlpha = layout.alphaIndex != nil
        let channels = hasAlpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for index in 0..<(width * height) {
            let word = raster[index]
            let alpha = Int(word >> 24)
            for channel in 0..<3 {
                var value = Int((word >> (8 * UInt32(channel))) & 0xFF)
                if hasAlpha { value = alpha == 0 ? 0 : min(255, (value * 255 + alpha / 2) / alpha) }
                pixels[index * channels + channel] = UInt8(value)
            }
            if hasAlpha { pixels[index * channels + 3] = UInt8(alpha) }
        }
        return Image(width: width, height: height, pixelFormat: layout.output, pixels: pixels)
    }
}
