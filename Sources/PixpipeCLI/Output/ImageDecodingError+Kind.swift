import Pixpipe

extension ImageDecodingError {
    /// A stable machine-readable name of the case, for the `errorKind` key of JSON records.
    var kindName: String {
        switch self {
        case .unsupportedFormat: "unsupportedFormat"
        case .corrupt: "corrupt"
        case .truncated: "truncated"
        case .unsupportedFeature: "unsupportedFeature"
        case .tooLarge: "tooLarge"
        case .inputTooLarge: "inputTooLarge"
        case .tooManyFrames: "tooManyFrames"
        case .animationTooLarge: "animationTooLarge"
        case .unreadable: "unreadable"
        }
    }
}
