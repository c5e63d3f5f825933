/// What each anomaly a WebP decode works around means for the pixels: the one place WebP's strictness is
/// decided.
///
/// libwebp has no warnings of its own: the decoder finds these itself, in the RIFF container (its declared
/// size against the file) and in the rows libwebp's incremental decoder has finished. An invalid bitstream
/// stays an error (`corrupt` in both modes: libwebp cannot say which rows are right).
enum WebPWarningTable {
    /// Bytes after the end the RIFF header declares.
    static let trailingData = WarningRule(
        libraryCode: "bytes after the RIFF payload", kind: .benign, code: "webp-trailing-data",
        reason: "libwebp reads only the declared payload; the image inside is whole")
    /// A RIFF size larger than the file, around a complete image.
    static let riffSizeTooLarge = WarningRule(
        libraryCode: "RIFF size larger than the file, image chunk whole", kind: .benign, code: "webp-riff-size",
        reason: "a writer that got the outer size wrong; the bitstream is complete")
    /// Image data that ends before the last row (lenient mode's warning; strict mode throws).
    static let truncatedData = WarningRule(
        libraryCode: "VP8_STATUS_SUSPENDED / NOT_ENOUGH_DATA before the last row", kind: .truncated,
        code: "webp-truncated",
        reason: "the image data was cut short: the rows decoded so far are kept, the rest are zero; a retry may "
            + "bring the whole file")

    /// Every row, in the order the README lists them.
    static let rows = [trailingData, riffSizeTooLarge, truncatedData]
}
