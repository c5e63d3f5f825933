import Pixpipe

/// The note a strict decoding failure gets when a lenient decode of the same input succeeds.
///
/// Only truncated or corrupt data can decode leniently; the commands then try the lenient decode, and
/// name `--lenient` only when it worked, so the hint is never a guess.
enum LenientHint {
    /// What is appended to the failure's message.
    static let suffix = " (use --lenient to decode what is there, the missing or damaged part filled)"

    /// Whether `error` is a kind of failure a lenient decode can get past: truncated or corrupt data.
    static func applies(to error: any Error) -> Bool {
        switch error {
        case let error as ImageDecodingError: applies(to: error)
        case let error as ImageProcessingError:
            if case .decoding(let decoding) = error { applies(to: decoding) } else { false }
        default: false
        }
    }

    private static func applies(to error: ImageDecodingError) -> Bool {
        switch error {
        case .truncated, .corrupt: true
        default: false
        }
    }
}
