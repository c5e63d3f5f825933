@testable import PixpipeImage

extension ImageDecodingError {
    /// The error's case without its payload, so tests can compare cases whose messages come from libpng.
    enum Case: Hashable {
        case unsupportedFormat, corrupt, truncated, unsupportedFeature, tooLarge, inputTooLarge, unreadable
        case tooManyFrames, animationTooLarge, noJPEGReconstructionData
    }

    /// This error's case.
    var `case`: Case {
        switch self {
        case .unsupportedFormat: .unsupportedFormat
        case .corrupt: .corrupt
        case .truncated: .truncated
        case .unsupportedFeature: .unsupportedFeature
        case .tooLarge: .tooLarge
        case .inputTooLarge: .inputTooLarge
        case .unreadable: .unreadable
        case .tooManyFrames: .tooManyFrames
        case .animationTooLarge: .animationTooLarge
        case .noJPEGReconstructionData: .noJPEGReconstructionData
        }
    }
}
