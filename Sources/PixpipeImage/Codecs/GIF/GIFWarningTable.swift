/// What each anomaly a GIF decode works around means for the pixels: the one place GIF's strictness is
/// decided.
///
/// giflib's failures are errors (`truncated` or `corrupt`); lenient mode keeps the whole frames before one
/// and reports it with the kind's own code. The row here is what both modes accept.
enum GIFWarningTable {
    /// A file that ends without its trailer (`;`) after its last whole frame.
    static let missingTrailer = WarningRule(
        libraryCode: "the layout scan meets the end of the data after a whole frame, no trailer byte", kind: .benign,
        code: "gif-missing-trailer",
        reason: "every frame the file holds is whole; only the one-byte trailer is missing")

    /// Every row, in the order the README lists them.
    static let rows = [missingTrailer]
}
