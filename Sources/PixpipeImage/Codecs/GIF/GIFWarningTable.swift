/// What each anomaly a GIF decode works around means for the pixels: the one place GIF's strictness is
/// decided.
///
/// giflib's failures are errors (`truncated` or `corrupt`); lenient mode keeps the whole frames before one
/// (and, for the first frame, the part drawn before it) and reports it with one of the last two rows. The
/// first row is what both modes accept.
enum GIFWarningTable {
    /// A file that ends without its trailer (`;`) after its last whole frame.
    static let missingTrailer = WarningRule(
        libraryCode: "the layout scan meets the end of the data after a whole frame, no trailer byte", kind: .benign,
        code: "gif-missing-trailer",
        reason: "every frame the file holds is whole; only the one-byte trailer is missing")

    /// The data ends inside a frame or a block.
    static let truncated = WarningRule(
        libraryCode: "a short read (D_GIF_ERR_READ_FAILED after the input ran out), or the layout scan meets "
            + "the end of the data inside a frame",
        kind: .truncated, code: "gif-truncated",
        reason: "the file ends inside a frame: the frames before it are whole, the rest of that frame and the "
            + "frames after it are missing")
    /// giflib refuses a frame's data or a block as damaged.
    static let damagedData = WarningRule(
        libraryCode: "D_GIF_ERR_IMAGE_DEFECT, D_GIF_ERR_EOF_TOO_SOON, D_GIF_ERR_DATA_TOO_BIG, "
            + "D_GIF_ERR_WRONG_RECORD, an LZW code size over 8, a frame with no colour table",
        kind: .corrupt, code: "gif-damaged-data",
        reason: "a frame's data is damaged: the frames before it are whole, the rest are not decoded")

    /// Every row, in the order the README lists them.
    static let rows = [missingTrailer, truncated, damagedData]

    /// The warning that stands for `error` when lenient decoding goes on without the frames it cost.
    static func warning(for error: ImageDecodingError) -> DecodeWarning {
        switch error {
        case .truncated(_, let reason): truncated.warning(reason)
        case .corrupt(_, let reason): damagedData.warning(reason)
        default: damagedData.warning(error.description)
        }
    }
}
