import CPixpipeTIFF

/// A page's rows, read from libtiff one strip (or one row of tiles) at a time, converted to the layout's
/// output format, and served in increasing order, so that the image is never held in its stored form.
///
/// A row's bytes stay valid until a row of a later band is asked for. After a read failure the rest of
/// the page reads as zero (the whole strips and tiles before it are kept) and ``failure`` says why.
final class TIFFRowBand {
    private let handle: TIFFHandle
    private let layout: TIFFPageLayout
    /// Rows per band: RowsPerStrip or TileLength, at most the height.
    let bandHeight: Int
    private let stored: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    /// One strip or tile of one plane, for planar or tiled pages.
    private let piece: UnsafeMutableRawBufferPointer
    private let outputRowBytes: Int
    /// Whether stored rows already are output rows, so that they are served from ``stored`` unconverted.
    private let passesThrough: Bool
    /// Where rows are served from: ``stored`` when they pass through, ``output`` otherwise.
    private var rows: UnsafeMutableRawBufferPointer { passesThrough ? stored : output }
    private var bandStart = 0
    private var bandCount = 0
    /// The first read failure and the rows read whole before it.
    private(set) var failure: (error: ImageDecodingError, rowsRead: Int)?
    /// The first strip or tile libtiff's codec failed on with warnings only (a CCITT line ending early):
    /// libtiff filled its rows, which are kept, and reading goes on.
    private(set) var incomplete: (error: ImageDecodingError, row: Int)?

    /// The rows of `handle`'s current page, laid out as `layout` says.
    init(handle: TIFFHandle, layout: TIFFPageLayout) throws(ImageDecodingError) {
        self.handle = handle
        self.layout = layout
        let page = handle.page
        let rows = page.is_tiled != 0 ? Int(page.tile_length) : Int(page.rows_per_strip)
        bandHeight = max(1, min(layout.height, rows))
        outputRowBytes = layout.width * layout.output.bytesPerPixel
        passesThrough =
            !(page.fill_order == 2 && layout.bits >= 8) && layout.storedRowBytes == outputRowBytes
            && TIFFSampleConverter(layout: layout).isIdentity
        var pieceBytes = 0
        if page.is_tiled != 0 {
            guard page.tile_width > 0, page.tile_length > 0 else {
                throw .corrupt(format: .tiff, reason: "tiles of no size")
            }
            pieceBytes = Int(pxp_tiff_tile_size(handle.handle))
            guard pieceBytes > 0 else { throw .corrupt(format: .tiff, reason: "libtiff gives no tile size") }
        } else if layout.isPlanar {
            pieceBytes = bandHeight * layout.width * layout.bits / 8
        }
        stored = .allocate(byteCount: max(1, bandHeight * layout.storedRowBytes), alignment: 16)
        output = .allocate(byteCount: max(1, bandHeight * outputRowBytes), alignment: 16)
        piece = .allocate(byteCount: max(1, pieceBytes), alignment: 16)
        stored.initializeMemory(as: UInt8.self, repeating: 0)
        output.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        stored.deallocate()
        output.deallocate()
        piece.deallocate()
    }

    /// The converted bytes of row `index`, which must not be before the current band.
    func row(_ index: Int) -> UnsafeRawPointer {
        precondition(index >= bandStart && index < layout.height, "rows are read forward only")
        while index >= bandStart + bandCount { readNextBand() }
        // Allocated with at least one byte, so the base address exists.
        return UnsafeRawPointer(rows.baseAddress!) + (index - bandStart) * outputRowBytes
    }

    /// Whether whole strips are already rows of the output (contiguous 8- or 16-bit gray or RGB, stored as
    /// the output lays them out), so ``readAll(into:)`` can have libtiff decode straight into the image.
    var readsInPlace: Bool {
        handle.page.is_tiled == 0 && !layout.isPlanar && passesThrough
    }

    /// Reads every strip straight into `destination` (the page's rows, ``readsInPlace`` being true), with
    /// the failures ``row(_:)`` records: after a failed strip, the rest of the page is zero.
    func readAll(into destination: UnsafeMutableRawPointer) {
        precondition(readsInPlace && bandStart == 0 && bandCount == 0, "a page is read whole once, in place")
        var start = 0
        while start < layout.height {
            let count = min(bandHeight, layout.height - start)
            let expected = count * outputRowBytes
            handle.clearError()
            let strip = UInt32(start / bandHeight)
            let read = pxp_tiff_read_strip(handle.handle, strip, destination + start * outputRowBytes, Int64(expected))
            if read < Int64(expected) {
                guard let message = handle.errorMessage else {
                    let reason = handle.lastWarning ?? "the strip or tile at row \(start) is incomplete"
                    if incomplete == nil { incomplete = (.corrupt(format: .tiff, reason: reason), start) }
                    start += count
                    continue
                }
                failure = (TIFFWarningTable.readError(message), start)
                (destination + start * outputRowBytes)
                    .initializeMemory(as: UInt8.self, repeating: 0, count: (layout.height - start) * outputRowBytes)
                break
            }
            start += count
        }
        bandStart = layout.height
    }

    /// Reads the rest of the page (so a verification reads every strip).
    func readRemainingRows() {
        while bandStart + bandCount < layout.height { readNextBand() }
    }

    private func readNextBand() {
        bandStart += bandCount
        bandCount = min(bandHeight, layout.height - bandStart)
        guard failure == nil else {
            rows.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        handle.clearError()
        let ok = handle.page.is_tiled != 0 ? readTiles() : layout.isPlanar ? readPlanarStrips() : readStrip()
        if !ok {
            guard let message = handle.errorMessage else {
                let reason = handle.lastWarning ?? "the strip or tile at row \(bandStart) is incomplete"
                if incomplete == nil { incomplete = (.corrupt(format: .tiff, reason: reason), bandStart) }
                convertBand()
                return
            }
            failure = (TIFFWarningTable.readError(message), bandStart)
            rows.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        convertBand()
    }

    private func convertBand() {
        if passesThrough { return }
        if reversesBits {
            let bytes = stored.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for index in 0..<(bandCount * layout.storedRowBytes) { bytes[index] = Self.reversed[Int(bytes[index])] }
        }
        let converter = TIFFSampleConverter(layout: layout)
        for row in 0..<bandCount {
            converter.convert(
                UnsafeRawPointer(stored.baseAddress!) + row * layout.storedRowBytes,
                into: output.baseAddress! + row * outputRowBytes)
        }
    }

    /// Whether libtiff's FillOrder 2 bit reversal is undone: for 8- and 16-bit samples (see ``TIFFPageLayout``).
    private var reversesBits: Bool { handle.page.fill_order == 2 && layout.bits >= 8 }

    /// Each byte value with its bits in the other order.
    private static let reversed: [UInt8] = (0..<256).map { value in
        (0..<8).reduce(UInt8(0)) { result, bit in result | UInt8((value >> bit) & 1) << (7 - bit) }
    }

    /// One contiguous strip: band `n` is strip `n`.
    private func readStrip() -> Bool {
        let strip = UInt32(bandStart / bandHeight)
        let expected = bandCount * layout.storedRowBytes
        let read = pxp_tiff_read_strip(handle.handle, strip, stored.baseAddress, Int64(expected))
        return read >= Int64(expected)
    }

    /// One strip of each plane, interleaved.
    private func readPlanarStrips() -> Bool {
        let planeRowBytes = layout.width * layout.bits / 8
        let expected = bandCount * planeRowBytes
        for plane in 0..<layout.samplesPerPixel {
            let strip = pxp_tiff_compute_strip(handle.handle, UInt32(bandStart), UInt16(plane))
            let read = pxp_tiff_read_strip(handle.handle, strip, piece.baseAddress, Int64(expected))
            guard read >= Int64(expected) else { return false }
            interleave(
                plane: plane, from: UnsafeRawPointer(piece.baseAddress!), sourceRowBytes: planeRowBytes,
                x: 0, columns: layout.width, rows: bandCount)
        }
        return true
    }

    /// One row of tiles, each plane of each.
    private func readTiles() -> Bool {
        let tileWidth = Int(handle.page.tile_width)
        let planes = layout.isPlanar ? layout.samplesPerPixel : 1
        let samplesPerTilePixel = layout.isPlanar ? 1 : layout.samplesPerPixel
        let tileRowBytes =
            layout.bits >= 8 ? tileWidth * samplesPerTilePixel * layout.bits / 8 : (tileWidth * layout.bits + 7) / 8
        for x in stride(from: 0, to: layout.width, by: tileWidth) {
            let columns = min(tileWidth, layout.width - x)
            for plane in 0..<planes {
                let tile = pxp_tiff_compute_tile(handle.handle, UInt32(x), UInt32(bandStart), UInt16(plane))
                let read = pxp_tiff_read_tile(handle.handle, tile, piece.baseAddress, Int64(piece.count))
                guard read > 0 else { return false }
                let source = UnsafeRawPointer(piece.baseAddress!)
                if layout.isPlanar {
                    interleave(
                        plane: plane, from: source, sourceRowBytes: tileRowBytes, x: x, columns: columns,
                        rows: bandCount)
                } else if layout.bits >= 8 {
                    let bytes = columns * layout.samplesPerPixel * layout.bits / 8
                    let offset = x * layout.samplesPerPixel * layout.bits / 8
                    for row in 0..<bandCount {
                        (stored.baseAddress! + row * layout.storedRowBytes + offset)
                            .copyMemory(from: source + row * tileRowBytes, byteCount: bytes)
                    }
                } else {
                    // Sub-byte samples: tile widths are multiples of 16, so each tile starts on a byte.
                    let offset = x * layout.bits / 8
                    let bytes = (columns * layout.bits + 7) / 8
                    for row in 0..<bandCount {
                        (stored.baseAddress! + row * layout.storedRowBytes + offset)
                            .copyMemory(from: source + row * tileRowBytes, byteCount: bytes)
                    }
                }
            }
        }
        return true
    }

    /// Copies one plane's samples into their place among the interleaved samples of the band.
    private func interleave(
        plane: Int, from source: UnsafeRawPointer, sourceRowBytes: Int, x: Int, columns: Int, rows: Int
    ) {
        let sampleBytes = layout.bits / 8
        let pixelBytes = layout.samplesPerPixel * sampleBytes
        for row in 0..<rows {
            let from = source + row * sourceRowBytes
            let to = stored.baseAddress! + row * layout.storedRowBytes + x * pixelBytes + plane * sampleBytes
            for column in 0..<columns {
                (to + column * pixelBytes).copyMemory(from: from + column * sampleBytes, byteCount: sampleBytes)
            }
        }
    }
}
