extension ImageDecodingError {
    /// A stable short name of the case, for manifests, JSON output and summaries: `not-an-image`,
    /// `corrupt-image`, `truncated-image`, `unsupported-image`, `too-large-image`, `input-too-large`,
    /// `too-many-frames`, `too-large-animation` or `unreadable-file`. Names never change once published, so recorded names keep their meaning.
    public var shortName: String {
        switch self {
        case .unsupportedFormat: "not-an-image"
        case .corrupt: "corrupt-image"
        case .truncated: "truncated-image"
        case .unsupportedFeature: "unsupported-image"
        case .tooLarge: "too-large-image"
        case .inputTooLarge: "input-too-large"
        case .tooManyFrames: "too-many-frames"
        case .animationTooLarge: "too-large-animation"
        case .unreadable: "unreadable-file"
        }
    }
}
