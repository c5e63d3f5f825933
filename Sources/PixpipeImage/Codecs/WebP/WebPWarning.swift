/// The anomalies a WebP decode works around, and what each costs.
///
/// | anomaly | pixels | strict | lenient | why |
/// |---|---|---|---|---|
/// | data after the RIFF payload | none | decode, warn | decode, warn | libwebp reads only the declared payload; the image inside is whole |
/// | RIFF size larger than the file, image chunk whole | none | decode, warn | decode, warn | a writer that got the outer size wrong; the bitstream is complete |
/// | image data cut short | lost | `truncated` | rows decoded so far, the rest zero, warn | a retry may bring the whole file |
/// | invalid bitstream | doubtful | `corrupt` | `corrupt` | libwebp cannot say which rows are right |
enum WebPWarning {
    /// Bytes after the end the RIFF header declares.
    case trailingData
    /// A RIFF size larger than the file, around a complete image.
    case riffSizeTooLarge
    /// Image data that ends before the last row.
    case truncatedData

    /// The warning with `message`.
    func warning(_ message: String) -> DecodeWarning {
        switch self {
        case .trailingData: DecodeWarning(kind: .benign, code: "webp-trailing-data", message: message)
        case .riffSizeTooLarge: DecodeWarning(kind: .benign, code: "webp-riff-size", message: message)
        case .truncatedData: DecodeWarning(kind: .truncated, code: "webp-truncated", message: message)
        }
    }
}
