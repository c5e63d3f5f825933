extension ThumbnailError {
    /// A stable short name of the case: a decoding failure's own name (``ImageDecodingError/shortName``),
    /// `too-large-source` or `invalid-thumbnail-size`.
    public var shortName: String {
        switch self {
        case .decoding(let error): error.shortName
        case .sourceTooLarge: "too-large-source"
        case .invalidSize: "invalid-thumbnail-size"
        }
    }
}
