/// One row of a codec's warning table: a condition the codec's library reports, and what it means here.
///
/// Each codec keeps one table (`Codecs/JPEG/JPEGWarningTable.swift`, `Codecs/PNG/PNGWarningTable.swift`)
/// that maps the library's own codes (libjpeg's `JWRN_*`, libpng's warning and benign-error paths) to a
/// rule. The decoder turns every report into a ``DecodeWarning`` through its rule, then
/// ``DecodeOptions/enforce(_:format:)`` decides: a warning that loses pixels throws in strict mode, a
/// benign one never does. The README's "Strictness" section lists every row with its reason.
struct WarningRule: Sendable, Hashable {
    /// The library's name for the condition (`JWRN_EXTRANEOUS_DATA before a header marker`).
    var libraryCode: String
    /// ``DecodeWarning/Kind/benign`` when no pixel is lost or doubtful; `.truncated` or `.corrupt` otherwise.
    var kind: DecodeWarning.Kind
    /// The stable short code warnings carry (`jpeg-extraneous-bytes`).
    var code: String
    /// Why the row has its kind: what the library did and what that means for the pixels.
    var reason: String

    /// The warning this rule makes of the library's `message`.
    func warning(_ message: String) -> DecodeWarning {
        DecodeWarning(kind: kind, code: code, message: message)
    }
}

/// The rows no one codec owns: conditions met after a decode, in colour management, for any format.
///
/// Their codes carry no format prefix because the same condition, with the same meaning, can follow the
/// decode of any format; every other warning comes from its codec's table.
enum SharedWarningTable {
    /// An ICC profile Little CMS refuses, or one that does not fit the pixels, left unused.
    static let colorProfileIgnored = WarningRule(
        libraryCode: "Little CMS refuses the profile or the transform (cmsOpenProfileFromMem, cmsCreateTransform)",
        kind: .benign, code: "color-profile-ignored",
        reason: "the pixels are kept as they are (a CMYK JPEG through the generic press profile, a thumbnail "
            + "unconverted); only the colour management the profile asked for is left out")

    /// Every row, in the order the README lists them.
    static let rows = [colorProfileIgnored]
}
