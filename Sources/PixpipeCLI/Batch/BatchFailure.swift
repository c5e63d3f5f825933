import Pixpipe

/// Why one input of a batch (`thumbnail`, `convert` into a folder) failed: the message for people and the
/// error's short name for programs (the `errorKind` of `--json`, as `info --json` and `fetch` have).
struct BatchFailure: Error, Sendable, Hashable {
    /// One line for people.
    let message: String
    /// The thrown error's `shortName` (see the README's "Error names"); `write` for an output that could
    /// not be written, `error` for anything else.
    let kind: String

    /// The kind of a `--frame N` past the input's last frame.
    static let frameOutOfRangeKind = "frame-out-of-range"

    /// A failure found without an error value to name it.
    init(message: String, kind: String) {
        self.message = message
        self.kind = kind
    }

    /// The failure `error` describes.
    init(_ error: any Error) {
        message = String(describing: error)
        kind =
            switch error {
            case let error as ImageProcessingError: error.shortName
            case let error as ImageDecodingError: error.shortName
            case let error as ImageEncodingError: error.shortName
            case is OutputWriteError: "write"
            case is FrameOutOfRange: Self.frameOutOfRangeKind
            default: "error"
            }
    }
}
