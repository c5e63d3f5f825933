/// What each condition the HEIF decoder reports means for the pixels: the one place HEIF's strictness is
/// decided.
///
/// libheif reports no warnings of its own: a file it decodes is whole, and every refusal is an error
/// (see the table on ``HEIFCodec``), the same in strict and lenient mode, since an HEVC image is all or
/// nothing. The rows here are the decoder's own observations.
enum HEIFWarningTable {
    /// An Exif orientation tag other than 1 in a HEIC: informative only (HEIF's `irot`/`imir` rule).
    static let exifOrientationIgnored = WarningRule(
        libraryCode: "Exif item: Orientation tag other than 1", kind: .benign, code: "heif-exif-orientation-ignored",
        reason: "HEIF shows a picture as its irot/imir properties say, which libheif applies; phones also store "
            + "the orientation in Exif, which is informative only and never applied on top")

    /// Every row, in the order the README lists them.
    static let rows = [exifOrientationIgnored]
}
