/// Makes a 1/8 decode of a progressive JPEG read only the scans that change it.
///
/// At 1/8 scale libjpeg-turbo gives each block of a full-resolution component (luma, in a 4:2:0 photo) one
/// pixel from its DC coefficient alone; subsampled chroma gets a larger inverse DCT, which reads AC
/// coefficients. A progressive file sends a component's AC coefficients in scans of their own, and for the
/// luma of a photo those are most of the file (6 of its 7 MB in a 24 MP photo). The filter copies the
/// file without the AC scans of the components libjpeg decodes as DC only, and that copy is decoded with
/// block smoothing off (smoothing would guess the dropped coefficients): the pixels are those of the whole
/// file's 1/8 decode, bit for bit, in a quarter of the time (docs/benchmarks.md, "Thumbnails of the photo
/// folder").
///
/// The dropped scans' structure is still checked: the filter follows every marker to EOI and gives up
/// (the caller decodes the whole file instead) on anything it does not expect, so a truncated file, junk
/// between segments or a second frame are reported exactly as before. What is not seen is damage to the
/// entropy-coded bits inside a dropped scan, which cannot change these pixels;
/// ``ThumbnailOptions/decodesWholeSource`` asks for the whole decode when the thumbnail must also prove
/// the file whole.
enum ProgressiveJPEGScanFilter {
    /// `bytes` without the AC scans whose components are all in `dcOnlyComponents`, ending at EOI; nil when
    /// the file is not a well-formed progressive Huffman JPEG to its EOI, or when no scan would be dropped.
    static func droppingACScans(of dcOnlyComponents: Set<UInt8>, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !dcOnlyComponents.isEmpty, bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var kept: [UInt8] = [0xFF, 0xD8]
        kept.reserveCapacity(bytes.count / 4)
        var position = 2
        var sawFrame = false
        var dropped = 0
        while true {
            // Between segments only a marker may stand; junk there goes to libjpeg, which warns about it.
            guard position < bytes.count, bytes[position] == 0xFF else { return nil }
            var codeAt = position + 1
            while codeAt < bytes.count, bytes[codeAt] == 0xFF { codeAt += 1 }
            guard codeAt < bytes.count else { return nil }
            let code = bytes[codeAt]
            if code == 0xD9 {
                kept.append(contentsOf: [0xFF, 0xD9])
                return dropped > 0 ? kept : nil
            }
            guard codeAt + 2 < bytes.count else { return nil }
            // Stray SOI, RSTn, TEM or a stuffed zero between segments: left to libjpeg's own handling.
            if code == 0x00 || code == 0x01 || (0xD0...0xD8).contains(code) { return nil }
            let length = Int(bytes[codeAt + 1]) << 8 | Int(bytes[codeAt + 2])
            let segmentEnd = codeAt + 1 + length
            guard length >= 2, segmentEnd <= bytes.count else { return nil }
            if JPEGScanTracker.isFrameHeader(code) {
                // Progressive Huffman only, and one frame.
                guard code == 0xC2, !sawFrame else { return nil }
                sawFrame = true
            }
            guard code == 0xDA else {
                kept.append(contentsOf: bytes[position..<segmentEnd])
                position = segmentEnd
                continue
            }
            guard sawFrame, let scan = Scan(header: bytes, at: codeAt + 3, length: length),
                let scanEnd = JPEGScanTracker.nextMarker(bytes, from: segmentEnd)
            else { return nil }
            if scan.isAC, scan.components.isSubset(of: dcOnlyComponents) {
                dropped += 1
            } else {
                kept.append(contentsOf: bytes[position..<scanEnd])
            }
            position = scanEnd
        }
    }

    /// What a scan header (SOS) says about the scan.
    private struct Scan {
        /// The identifiers of the components in the scan.
        var components: Set<UInt8>
        /// Whether it carries AC coefficients (its spectral selection starts after the DC coefficient).
        var isAC: Bool

        /// Reads the SOS payload at `offset` (after the length), `length` bytes with the length; nil when
        /// its size does not match its component count.
        init?(header bytes: UnsafeRawBufferPointer, at offset: Int, length: Int) {
            guard length >= 3 else { return nil }
            let count = Int(bytes[offset])
            guard count >= 1, length == 6 + 2 * count else { return nil }
            components = Set((0..<count).map { bytes[offset + 1 + 2 * $0] })
            isAC = bytes[offset + 1 + 2 * count] != 0
        }
    }
}

extension JPEGDecoder {
    /// The 1/8 decode of the progressive JPEG `reader` has opened, from only the scans it shows
    /// (``ProgressiveJPEGScanFilter``); nil when the file is not one that applies to, and `reader` is then
    /// unchanged for a whole decode. `filter` runs the filter over the file's bytes, read again from the start.
    static func decodeEighthFromShownScans(
        _ reader: JPEGReader, options: DecodeOptions,
        filter: (_ dropping: (UnsafeRawBufferPointer) -> [UInt8]?) throws(ImageDecodingError) -> [UInt8]?
    ) throws(ImageDecodingError) -> Image? {
        guard reader.header.progressive != 0, reader.header.arithmetic == 0, reader.header.data_precision == 8
        else { return nil }
        _ = try reader.configure(scaleNumerator: 1, space: reader.outputSpace)
        let dcOnly = reader.dcOnlyComponentIDs
        guard !dcOnly.isEmpty,
            let filtered = try filter({ ProgressiveJPEGScanFilter.droppingACScans(of: dcOnly, in: $0) })
        else { return nil }
        var eighth = options
        eighth.jpegScale = .eighths(1)
        let decoded: Result<Image, ImageDecodingError> = filtered.withUnsafeBytes { buffer in
            Result { () throws(ImageDecodingError) in
                let shown = try JPEGReader(bytes: buffer, pixelLimit: options.pixelLimit)
                shown.disableBlockSmoothing()
                return try decode(shown, options: eighth)
            }
        }
        return try decoded.get()
    }
}
