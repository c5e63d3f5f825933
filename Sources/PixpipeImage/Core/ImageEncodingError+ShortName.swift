extension ImageEncodingError {
    /// A stable short name of the case: `unsupported-output-format`, `unsupported-pixel-format`,
    /// `invalid-encoding-option`, `encoder-failed`, `unknown-output-extension` or `unwritable-file`.
    public var shortName: String {
        switch self {
        case .unsupportedFormat: "unsupported-output-format"
        case .unsupportedPixelFormat: "unsupported-pixel-format"
        case .invalidOption: "invalid-encoding-option"
        case .libraryFailure: "encoder-failed"
        case .unknownFileExtension: "unknown-output-extension"
        case .unwritable: "unwritable-file"
        }
    }
}
