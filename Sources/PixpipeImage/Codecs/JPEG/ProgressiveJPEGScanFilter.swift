/// Makes a reduced decode of a progressive JPEG read only the scans it needs.
///
/// At a reduced scale libjpeg-turbo gives each 8x8 block a smaller block of pixels, through a scaled
/// inverse DCT. A progressive file sends a component's AC coefficients in scans of their own, and for the
/// luma of a photo those are most of the file (6 of its 7 MB in a 24 MP photo). Two kinds of scan are left
/// out, per component:
///
/// - At 1/8, a full-resolution component (luma, in a 4:2:0 photo) gets one pixel a block from its DC
///   coefficient alone (subsampled chroma gets a larger inverse DCT, which reads AC coefficients): its AC
///   scans cannot change a pixel and are dropped. The pixels are those of the whole file's 1/8 decode, bit
///   for bit, in a quarter of the time.
/// - At 2/8, full-resolution luma gets 2x2 pixels a block, and its final AC refinement scans (the last bit
///   of every AC coefficient, and so the coefficients whose magnitude is 1; over a third of a photo's
///   bytes, and most of its decoding time) are dropped. That is not exact: the 6 MP progressive photos of
///   the thumbnail benchmark decode in 40% less time, and their 256 px thumbnails lose 0.02-0.06 dB against
///   the reference resize of the whole decode; Kodak photos at 63 px lose 0.03-0.21 dB and stay above 49 dB
///   (docs/benchmarks.md, "Progressive JPEGs at 1/8 and 2/8 read only the scans they need").
///
/// The copy is decoded with block smoothing off (smoothing would guess the dropped coefficients). The
/// dropped scans' structure is still checked: the filter follows every marker to EOI and gives up (the
/// caller decodes the whole file instead) on anything it does not expect, so a truncated file, junk between
/// segments or a second frame are reported exactly as before. What is not seen is damage to the
/// entropy-coded bits inside a dropped scan; ``ThumbnailOptions/decodesWholeSource`` asks for the whole
/// decode when the thumbnail must also prove the file whole, or be the whole decode's to the bit.
enum ProgressiveJPEGScanFilter {
    /// The scans of one component that a reduced decode can do without.
    enum Unneeded: Sendable, Hashable {
        /// Every AC scan: the decode uses only the DC coefficient.
        case acScans
        /// AC refinement scans that bring coefficients to their last bit (successive approximation from
        /// bit 1 to bit 0).
        case lastACBit
    }

    /// The scans a decode can do without, by component identifier.
    typealias Plan = [UInt8: Unneeded]

    /// What a decode at 1/8 or 2/8 can do without, given how libjpeg makes each component's pixels at that
    /// scale.
    static func plan(numerator: Int, components: [UInt8: JPEGReader.ComponentBlocks]) -> Plan {
        var unneeded: Plan = [:]
        for (id, blocks) in components {
            if blocks.side == 1 {
                unneeded[id] = .acScans
            } else if numerator == 2, blocks.side == 2, blocks.isLuma {
                // Luma at full resolution (a side other than the scale's numerator is a component libjpeg
                // sized up in place of upsampling it). Chroma keeps its last bit: its scans are small, and in
                // 4:4:4 Kodak photos at 63 px dropping them too lost 0.23-0.47 dB in place of 0.05-0.13.
                // Not at 4/8 or 8/8, where less of each block is averaged away: Kodak photos thumbnailed to
                // 128 px from 4/8 lost 0.16-0.71 dB, and to 256 px from 8/8 2-6 dB.
                unneeded[id] = .lastACBit
            }
        }
        return unneeded
    }

    /// `bytes` without the scans `unneeded` names (a scan goes only when every component in it can do
    /// without it), ending at EOI; nil when the file is not a well-formed progressive Huffman JPEG to its
    /// EOI, or when no scan would be dropped.
    static func droppingScans(_ unneeded: Plan, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !unneeded.isEmpty, bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var kept: [UInt8] = [0xFF, 0xD8]
        kept.reserveCapacity(bytes.count)
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
            if scan.canBeDropped(given: unneeded) {
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
        /// Whether it refines coefficients to their last bit (successive approximation high bit 1 or more,
        /// low bit 0).
        var refinesLastBit: Bool

        /// Reads the SOS payload at `offset` (after the length), `length` bytes with the length; nil when
        /// its size does not match its component count.
        init?(header bytes: UnsafeRawBufferPointer, at offset: Int, length: Int) {
            guard length >= 3 else { return nil }
            let count = Int(bytes[offset])
            guard count >= 1, length == 6 + 2 * count else { return nil }
            components = Set((0..<count).map { bytes[offset + 1 + 2 * $0] })
            isAC = bytes[offset + 1 + 2 * count] != 0
            let approximation = bytes[offset + 3 + 2 * count]
            refinesLastBit = approximation >> 4 != 0 && approximation & 0x0F == 0
        }

        /// Whether every component in the scan can do without it.
        func canBeDropped(given unneeded: Plan) -> Bool {
            guard isAC else { return false }
            return components.allSatisfy { id in
                switch unneeded[id] {
                case .acScans: true
                case .lastACBit: refinesLastBit
                case nil: false
                }
            }
        }
    }
}

extension JPEGDecoder {
    /// The decode at `numerator`/8 (1 or 2) of the progressive JPEG `reader` has opened, from only the scans
    /// it needs (``ProgressiveJPEGScanFilter``); nil when the file is not one that applies to, and `reader`
    /// is then unchanged for a whole decode. `filter` runs the filter over the file's bytes, read again from
    /// the start.
    static func decodeReducedFromNeededScans(
        _ reader: JPEGReader, numerator: Int, options: DecodeOptions,
        filter: (_ dropping: (UnsafeRawBufferPointer) -> [UInt8]?) throws(ImageDecodingError) -> [UInt8]?
    ) throws(ImageDecodingError) -> Image? {
        guard numerator == 1 || numerator == 2, reader.header.progressive != 0, reader.header.arithmetic == 0,
            reader.header.data_precision == 8
        else { return nil }
        _ = try reader.configure(scaleNumerator: numerator, space: reader.outputSpace)
        let unneeded = ProgressiveJPEGScanFilter.plan(numerator: numerator, components: reader.componentBlocks)
        guard !unneeded.isEmpty,
            let filtered = try filter({ ProgressiveJPEGScanFilter.droppingScans(unneeded, in: $0) })
        else { return nil }
        var reduced = options
        reduced.jpegScale = .eighths(numerator)
        let decoded: Result<Image, ImageDecodingError> = filtered.withUnsafeBytes { buffer in
            Result { () throws(ImageDecodingError) in
                let needed = try JPEGReader(bytes: buffer, pixelLimit: options.pixelLimit)
                needed.disableBlockSmoothing()
                return try decode(needed, options: reduced)
            }
        }
        return try decoded.get()
    }
}
