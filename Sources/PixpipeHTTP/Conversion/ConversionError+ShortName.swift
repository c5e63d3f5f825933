extension ConversionError {
    /// A stable short name of the case: `unsupported-charset`, `undecodable-text`, `invalid-json`,
    /// `key-path-not-found`, `decoding-failed`, `missing-value`, `html-page` or `conversion-failed`.
    public var shortName: String {
        switch self {
        case .unsupportedCharset: "unsupported-charset"
        case .undecodableText: "undecodable-text"
        case .invalidJSON: "invalid-json"
        case .keyPathNotFound: "key-path-not-found"
        case .decodingFailed: "decoding-failed"
        case .missingValue: "missing-value"
        case .underlying: "conversion-failed"
        case .htmlPage: "html-page"
        }
    }
}
