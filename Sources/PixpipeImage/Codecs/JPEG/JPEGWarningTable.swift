import CPixpipeImage

/// What each libjpeg warning means for the pixels: the one place JPEG's strictness is decided.
///
/// libjpeg reports recoverable problems as warnings with a message code (`JWRN_*` in jerror.h); the shim
/// records the code, renamed one for one as `PXP_JPEG_WARNING_*`, and where in the stream it was found
/// (between marker segments, or inside a scan's entropy-coded data). A row is benign when libjpeg skipped
/// nothing the entropy decoder needed; every row that can lose or fill pixels, or leave them in doubt,
/// is `.truncated` or `.corrupt`, which strict decoding refuses. Codes the table does not name are
/// `.corrupt`: an unknown warning is doubtful until shown otherwise.
enum JPEGWarningTable {
    /// A library report: the shim's code and the place it was found.
    struct Key: Hashable {
        /// `PXP_JPEG_WARNING_*`.
        var code: Int32
        /// `PXP_JPEG_PLACE_*`.
        var place: Int32
    }

    /// Every row, in the order the README lists them.
    static let rows: [(key: Key, rule: WarningRule)] = [
        (
            Key(code: Int32(PXP_JPEG_WARNING_EXTRANEOUS_DATA), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_EXTRANEOUS_DATA before a header marker or EOI", kind: .benign,
                code: "jpeg-extraneous-bytes",
                reason: "junk between marker segments (before DQT, DHT, APPn, SOF, SOS, EOI): the marker reader "
                    + "skips it to the next marker; no entropy-coded byte is skipped")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_EXTRANEOUS_DATA), place: Int32(PXP_JPEG_PLACE_SCAN_DATA)),
            WarningRule(
                libraryCode: "JWRN_EXTRANEOUS_DATA before RSTn", kind: .corrupt, code: "jpeg-junk-before-restart",
                reason: "bytes inside a scan before a restart marker: the interval before it may have lost or "
                    + "replaced data the decoder cannot tell from junk")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_BOGUS_ICC), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_BOGUS_ICC", kind: .benign, code: "jpeg-bad-icc-marker",
                reason: "an APP2 ICC segment is malformed or out of sequence: the profile is left out of the "
                    + "metadata; pixels are decoded without colour management either way")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_JFIF_MAJOR), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_JFIF_MAJOR", kind: .benign, code: "jpeg-jfif-version",
                reason: "an unknown JFIF major version: the APP0 segment only carries density, read as usual")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_ADOBE_XFORM), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_ADOBE_XFORM", kind: .benign, code: "jpeg-adobe-transform",
                reason: "an unknown Adobe transform code: libjpeg picks the colour space from the component "
                    + "count, as every decoder does")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_JPEG_EOF), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_JPEG_EOF", kind: .truncated, code: "jpeg-premature-end",
                reason: "the data ended before EOI: the rest of the image is filled (gray)")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_HIT_MARKER), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_HIT_MARKER", kind: .corrupt, code: "jpeg-marker-in-scan-data",
                reason: "a marker inside entropy-coded data: the rest of the segment decodes as zeros")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_MUST_RESYNC), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_MUST_RESYNC", kind: .corrupt, code: "jpeg-restart-resync",
                reason: "a marker other than the expected RSTn: libjpeg resynchronises, skipping or filling "
                    + "MCUs")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_HUFF_BAD_CODE), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_HUFF_BAD_CODE", kind: .corrupt, code: "jpeg-bad-huffman-code",
                reason: "an invalid Huffman code in scan data: the coefficients after it are wrong")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_ARITH_BAD_CODE), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_ARITH_BAD_CODE", kind: .corrupt, code: "jpeg-bad-arithmetic-code",
                reason: "an invalid arithmetic code in scan data: the coefficients after it are wrong")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_BOGUS_PROGRESSION), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_BOGUS_PROGRESSION", kind: .corrupt, code: "jpeg-inconsistent-progression",
                reason: "progressive scans that refine coefficients never sent, or twice: some are missing")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_NOT_SEQUENTIAL), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_NOT_SEQUENTIAL", kind: .corrupt, code: "jpeg-invalid-scan-parameters",
                reason: "progression parameters in a sequential file's SOS: libjpeg ignores them, but the "
                    + "file is not what its header claims")
        ),
        (
            Key(code: Int32(PXP_JPEG_WARNING_TOO_MUCH_DATA), place: Int32(PXP_JPEG_PLACE_SEGMENTS)),
            WarningRule(
                libraryCode: "JWRN_TOO_MUCH_DATA", kind: .corrupt, code: "jpeg-too-many-scanlines",
                reason: "more rows were asked for than the image has: a decoder bug, never trusted")
        ),
    ]

    /// The rule for a code no row names.
    static let unknown = WarningRule(
        libraryCode: "any other JWRN_*", kind: .corrupt, code: "jpeg-warning",
        reason: "a warning this table does not know: doubtful until a row says otherwise")

    /// The rule for a failure after every row was decoded (lenient mode only; strict mode throws it).
    static let damagedTail = WarningRule(
        libraryCode: "error in jpeg_finish_decompress", kind: .corrupt, code: "jpeg-damaged-tail",
        reason: "every row was decoded, then reading on to EOI failed: the last scan may be incomplete")

    private static let byKey = Dictionary(rows.map { ($0.key, $0.rule) }, uniquingKeysWith: { first, _ in first })

    /// The rule for libjpeg's report `code` at `place`. Only extraneous data has a place that matters; the
    /// other codes are looked up between segments.
    static func rule(code: Int32, place: Int32) -> WarningRule {
        byKey[Key(code: code, place: place)] ?? byKey[Key(code: code, place: Int32(PXP_JPEG_PLACE_SEGMENTS))]
            ?? unknown
    }
}
