import PixpipeImage

/// Why a benchmark could not run; printed on stderr with exit status 1 (usage errors: 2).
enum BenchError: Error, CustomStringConvertible {
    /// The command line is not understood.
    case usage(String)
    /// An input file could not be read.
    case unreadable(path: String, reason: String)
    /// Decoding an input failed (while the codecs are stubs this says "not implemented yet").
    case decoding(path: String, ImageDecodingError)
    /// Encoding failed.
    case encoding(ImageEncodingError)
    /// The processing step failed.
    case processing(ImageProcessingError)
    /// The image pipeline failed to load an image, or its test server could not start.
    case pipeline(String)

    /// A one-line explanation for people.
    var description: String {
        switch self {
        case .usage(let message): "usage: \(message)"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .decoding(let path, let error): "decoding \(path): \(error)"
        case .encoding(let error): "encoding: \(error)"
        case .processing(let error): "processing: \(error)"
        case .pipeline(let message): "pipeline: \(message)"
        }
    }

    /// The process exit status for this error.
    var exitStatus: Int32 {
        if case .usage = self { return 2 }
        return 1
    }
}
