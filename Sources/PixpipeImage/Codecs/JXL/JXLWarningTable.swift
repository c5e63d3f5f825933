/// What each libjxl report means for the pixels: the one place JPEG XL's strictness is decided.
///
/// libjxl 0.7 has no message codes: its decoder stops with `JXL_DEC_ERROR` (damage, or what 0.7 refuses) or
/// asks for more input after the input is closed (the file is cut). A still frame is all or nothing, so both
/// are errors there; in an animation lenient mode keeps the whole frames before the failure, with one of
/// these warnings on the last of them.
enum JXLWarningTable {
    /// The input ends inside a later frame of an animation.
    static let animationCut = WarningRule(
        libraryCode: "JXL_DEC_NEED_MORE_INPUT (input closed) after a whole frame", kind: .truncated,
        code: "jxl-animation-cut",
        reason: "the file ends inside a later frame: the frames before it are whole, the rest are missing")
    /// libjxl refuses a later frame of an animation.
    static let animationDamaged = WarningRule(
        libraryCode: "JXL_DEC_ERROR after a whole frame", kind: .corrupt, code: "jxl-animation-damaged",
        reason: "a later frame is damaged: the frames before it are whole, the rest are not decoded")

    /// Every row, in the order the README lists them.
    static let rows = [animationCut, animationDamaged]

    /// The warning for `error`, met decoding frame `frame` after at least one whole frame.
    static func warning(after error: ImageDecodingError, frame: Int) -> DecodeWarning {
        let rule = if case .truncated = error { animationCut } else { animationDamaged }
        return rule.warning("frame \(frame) and later not decoded: \(error)")
    }
}
