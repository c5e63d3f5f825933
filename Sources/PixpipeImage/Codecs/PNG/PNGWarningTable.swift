/// What each libpng report means for the pixels: the one place PNG's strictness is decided.
///
/// libpng has no message codes. What identifies a report is its path (an error; or a warning: a benign
/// error, which the decoder makes a warning, or a CRC mismatch in an ancillary chunk, which the decoder
/// has libpng discard with a warning) and the chunk being read, which the shim records. Errors stay
/// errors (a CRC mismatch in IDAT or another critical chunk, missing or short image data, truncation);
/// their rows below only name the warning lenient mode keeps. No ancillary chunk but tRNS changes a
/// decoded pixel here (no gamma or colour correction is applied), so losing one is benign.
enum PNGWarningTable {
    /// The chunk type `tRNS`, whose loss removes transparency.
    static let transparencyChunk = chunkType("tRNS")
    /// The chunk type `IDAT`.
    static let imageDataChunk = chunkType("IDAT")

    /// A CRC mismatch in tRNS, or libpng ignoring an invalid one.
    static let transparencyLost = WarningRule(
        libraryCode: "tRNS: CRC mismatch (discarded) or png_benign_error", kind: .corrupt,
        code: "png-transparency-lost",
        reason: "the transparency chunk was discarded: pixels that should be transparent are opaque")
    /// A CRC mismatch, a warning or a benign error about another ancillary chunk.
    static let ancillaryChunk = WarningRule(
        libraryCode: "ancillary chunk: CRC mismatch (PNG_CRC_WARN_DISCARD), png_warning or png_benign_error",
        kind: .benign, code: "png-ancillary-chunk",
        reason: "a damaged, invalid, duplicate or unknown-and-damaged ancillary chunk (text, time, a bad ICC "
            + "profile) is discarded or ignored; no decoded pixel depends on it")
    /// A benign error in the image data: raised only once every row is inflated.
    static let dataAfterLastRow = WarningRule(
        libraryCode: "IDAT: png_benign_error (extra compressed data, too much image data, too many IDATs)",
        kind: .benign, code: "png-data-after-last-row",
        reason: "every row was inflated; libpng ignores what follows in the image data")
    /// The decoder's own stop after the last row (`PXP_PNG_EXCESS_DATA`).
    static let excessAfterLastRow = WarningRule(
        libraryCode: "PXP_PNG_EXCESS_DATA (pixpipe's stop at 16 KiB of image data after the last row)",
        kind: .benign, code: "png-excess-data-after-last-row",
        reason: "every row was inflated; the rest is not inflated (it could be a decompression bomb), so "
            + "the chunks after the image data (a late eXIf) are not read")
    /// A warning about a critical chunk that libpng went on from.
    static let criticalChunk = WarningRule(
        libraryCode: "critical chunk: png_warning or png_benign_error", kind: .benign,
        code: "png-critical-chunk",
        reason: "libpng fails on every critical-chunk problem that affects pixels; what it only warns about "
            + "(a suggested palette in a truecolour image, data in IEND) it ignores")
    /// More distinct warnings than the shim records.
    static let overflow = WarningRule(
        libraryCode: "more than PXP_PNG_MAX_WARNING_KINDS distinct warnings", kind: .corrupt,
        code: "png-too-many-warnings", reason: "warnings past the recorded ones cannot be classified: doubtful")
    /// Truncation (lenient mode's warning; strict mode throws).
    static let truncated = WarningRule(
        libraryCode: "PXP_PNG_TRUNCATED", kind: .truncated, code: "png-truncated",
        reason: "the data ended before IEND: missing rows are zero")
    /// Damage in the image data (lenient mode's warning; strict mode throws).
    static let damagedImageData = WarningRule(
        libraryCode: "png_error in IDAT (CRC mismatch, zlib error, missing or short image data)", kind: .corrupt,
        code: "png-damaged-image-data", reason: "rows from the damage on are zero")
    /// Damage in the chunks after the image data (lenient mode's warning; strict mode throws).
    static let damagedEnd = WarningRule(
        libraryCode: "png_error after the image data (a critical chunk's CRC, IEND)", kind: .corrupt,
        code: "png-damaged-end", reason: "every row was decoded, then the end of the file could not be read")

    /// Every row, in the order the README lists them.
    static let rows = [
        transparencyLost, ancillaryChunk, dataAfterLastRow, excessAfterLastRow, criticalChunk,
        overflow, truncated, damagedImageData, damagedEnd,
    ]

    /// The rule for a warning libpng gave while reading `chunk` (four ASCII bytes, big-endian).
    static func rule(chunk: UInt32) -> WarningRule {
        if chunk == transparencyChunk { return transparencyLost }
        // libpng's benign errors in the image data come only once every row is inflated.
        if chunk == imageDataChunk { return dataAfterLastRow }
        // Bit 5 of the first byte set (a lowercase letter) marks an ancillary chunk.
        return chunk & 0x2000_0000 != 0 ? ancillaryChunk : criticalChunk
    }

    /// The rule for an error lenient mode keeps as a warning: truncation, or damage in or after the rows.
    static func rule(for error: ImageDecodingError, afterImageData: Bool) -> WarningRule {
        if case .truncated = error { return truncated }
        return afterImageData ? damagedEnd : damagedImageData
    }

    private static func chunkType(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }
}
