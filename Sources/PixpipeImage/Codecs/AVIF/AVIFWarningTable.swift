/// What each anomaly an AVIF decode works around means for the pixels: the one place AVIF's strictness is
/// decided.
///
/// libavif's failures are errors (``AVIFFailure`` maps its result codes to typed errors); these rows are
/// what the decoder accepts with a warning. Damage found after the first frame of an animation, and a last
/// box that runs past the end of the file, are reported with the kind's own code (`truncated`, `corrupt`).
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

    /// Every row, in the order the README lists them.
    static let rows = [clapIgnored, strictOnly]
}
