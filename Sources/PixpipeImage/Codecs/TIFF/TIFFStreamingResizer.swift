/// Thumbnails a TIFF's first page while libtiff reads it, one strip or one row of tiles at a time, with
/// the resampler PNG's streaming thumbnails use (``Resampler/prepareForSinglePass()``): peak memory is a
/// band of rows, the resampler's window and the output, whatever the page's size.
///
/// Pages read through libtiff's RGBA interface (``TIFFPageLayout/Path/rgba``) are decoded whole under the
/// thumbnail's pixel limit instead.
enum TIFFStreamingResizer {
    /// The thumbnail of `bytes` that `thumbnailer` asks for; `isFileMapping` as ``TIFFHandle`` takes it.
    static func thumbnail(
        _ bytes: UnsafeRawBufferPointer, isFileMapping: Bool = false, by thumbnailer: Thumbnailer
    ) throws(ImageProcessingError) -> Image {
        let options = thumbnailer.options
        let decodeOptions = DecodeOptions(pixelLimit: nil, strictness: options.strictness)
        let handle = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            // libtiff's own allocation limit: the thumbnail's pixel limit, which bounds a strip's size too.
            try TIFFHandle(bytes: bytes, pixelLimit: options.pixelLimit, isFileMapping: isFileMapping)
        }
        let page = handle.page
        let early = TIFFMetadata.metadata(of: page, warnings: [])
        let plan = try Thumbnailer.Plan(
            width: Int(page.width), height: Int(page.height), orientation: early.orientation, format: .tiff, options)
        let layout = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            try TIFFPageLayout(handle: handle, keeps16Bit: false)
        }
        guard case .samples = layout.path else {
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                try TIFFDecoder.decode(handle, page: 0, options: thumbnailer.fullDecodeOptions)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
        try thumbnailer.checkAllocation(width: plan.storedWidth, height: plan.storedHeight)
        // A band is one strip or one row of tiles: a file whose single strip holds a page over the limit is
        // refused rather than read whole.
        let bandRows = page.is_tiled != 0 ? Int(page.tile_length) : Int(page.rows_per_strip)
        try thumbnailer.checkAllocation(width: layout.width, height: min(layout.height, max(1, bandRows)))
        let resized = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            let rows = try TIFFRowBand(handle: handle, layout: layout)
            var resampler = Resampler(
                sourceWidth: layout.width, sourceHeight: layout.height, outputWidth: plan.storedWidth,
                outputHeight: plan.storedHeight, format: layout.output, filter: options.filter,
                linearLight: options.linearLight)
            resampler.prepareForSinglePass()
            var image = Image(width: plan.storedWidth, height: plan.storedHeight, pixelFormat: layout.output)
            let rowBytes = layout.width * layout.output.bytesPerPixel
            image.withUnsafeMutableBytes { destination in
                guard let base = destination.baseAddress else { return }
                guard
                    TIFFBandPrefetcher.worthwhile(
                        bandBytes: rows.bandHeight * rowBytes, height: layout.height, bandHeight: rows.bandHeight)
                else {
                    resampler.resampleRows(0..<plan.storedHeight, sourceRow: { rows.row($0) }, destination: base)
                    return
                }
                // A page of many bands: libtiff decodes the next band on another thread while this one resizes.
                let prefetcher = TIFFBandPrefetcher(band: rows, height: layout.height, rowBytes: rowBytes)
                prefetcher.start()
                resampler.resampleRows(0..<plan.storedHeight, sourceRow: { prefetcher.row($0) }, destination: base)
                prefetcher.finish()
            }
            // Rows the resampler skipped are still read, so damage anywhere is found.
            rows.readRemainingRows()
            var warnings = layout.warnings
            try TIFFDecoder.collect(rows, height: layout.height, options: decodeOptions, into: &warnings)
            warnings += handle.takeWarnings()
            try decodeOptions.enforce(warnings, format: .tiff)
            image.metadata = TIFFMetadata.metadata(of: handle, warnings: warnings)
            return image
        }
        return try thumbnailer.finish(resized, plan: plan)
    }
}
