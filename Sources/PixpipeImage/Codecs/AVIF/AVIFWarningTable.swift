/// What each anomaly an AVIF decode works around means for the pixels: the one place AVIF's strictness is
/// decided.
///
/// libavif's failures are errors (``AVIFFailure`` maps its result codes to typed errors); these rows are
/// what the decoder accepts with a warning: benign anomalies in both modes, and in lenient mode a file cut
/// or damaged after what it still shows.
enum AVIFWarningTable {
    /// A `clap` box that names no whole rectangle inside the image.
    static let clapIgnored = WarningRule(
        libraryCode: "avifCropRectConvertCleanApertureBox fails", kind: .benign, code: "avif-clap-ignored",
        reason: "the clean aperture cannot be applied, so every pixel is shown: nothing is lost")
    /// A file only libavif's strict checks refuse, decoded with them off.
    static let strictOnly = WarningRule(
        libraryCode: "a parse or decode failure whose diagnostics name a strict-mode check "
            + "(AVIFFailure.isStrictOnly), gone with AVIF_STRICT_DISABLED",
        kind: .benign, code: "avif-strict-only",
        reason: "only libavif's strict checks refuse the file (a rule writers break); the file is read again "
            + "without them and the pixels are whole")

    /// A last top-level box that runs past the end of the file, after everything the image needs.
    static let lastBoxCut = WarningRule(
        libraryCode: "the last top-level box's size runs past the end of the data (read before libavif parses)",
        kind: .truncated, code: "avif-last-box-cut",
        reason: "the file was cut: libavif read the image from whole boxes, but what the cut box held is missing")
    /// The input ends inside a later frame of an image sequence.
    static let animationCut = WarningRule(
        libraryCode: "avifDecoderNextImage: AVIF_RESULT_TRUNCATED_DATA (or a cut last box) after a whole frame",
        kind: .truncated,
        code: "avif-animation-cut",
        reason: "the file ends inside a later frame: the frames before it are whole, the rest are missing")
    /// libavif refuses a later frame of an image sequence.
    static let animationDamaged = WarningRule(
        libraryCode: "avifDecoderNextImage: any other failure after a whole frame", kind: .corrupt,
        code: "avif-animation-damaged",
        reason: "a later frame is damaged: the frames before it are whole, the rest are not decoded")

    /// Every row, in the order the README lists them.
    static let rows = [clapIgnored, strictOnly, lastBoxCut, animationCut, animationDamaged]

    /// The warning for `error`, met decoding frame `frame` after at least one whole frame.
    static func warning(after error: ImageDecodingError, frame: Int) -> DecodeWarning {
        let rule = if case .truncated = error { animationCut } else { animationDamaged }
        return rule.warning("frame \(frame) and later not decoded: \(error)")
    }
}
