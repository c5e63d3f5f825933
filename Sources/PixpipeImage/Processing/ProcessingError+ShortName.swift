extension ProcessingError {
    /// A stable short name of the case: `empty-crop` or `invalid-size`.
    public var shortName: String {
        switch self {
        case .emptyCrop: "empty-crop"
        case .invalidSize: "invalid-size"
        }
    }
}

extension ImageProcessingError {
    /// The short name of the underlying error (see ``ImageDecodingError/shortName``,
    /// ``ThumbnailError/shortName``, ``ProcessingError/shortName``, ``ImageColorError/shortName``).
    public var shortName: String {
        switch self {
        case .decoding(let error): error.shortName
        case .thumbnail(let error): error.shortName
        case .processing(let error): error.shortName
        case .color(let error): error.shortName
        }
    }
}
