import Foundation

/// Why the converted image could not be written.
enum OutputWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The temporary file could not be created in the destination's directory.
    case cannotCreateTemporaryFile(directory: String, errno: Int32)
    /// Writing or syncing the temporary file failed (disk full, I/O error...).
    case writeFailed(path: String, errno: Int32)
    /// The temporary file could not be renamed over the destination.
    case renameFailed(destination: String, errno: Int32)
    /// Writing to standard output failed (for example a closed pipe).
    case standardOutputFailed(reason: String)

    /// A one-line explanation for people.
    var description: String {
        switch self {
        case .cannotCreateTemporaryFile(let directory, let code):
            "cannot create a temporary file in \(directory): \(Self.message(code))"
        case .writeFailed(let path, let code): "cannot write \(path): \(Self.message(code))"
        case .renameFailed(let destination, let code): "cannot replace \(destination): \(Self.message(code))"
        case .standardOutputFailed(let reason): "cannot write to standard output: \(reason)"
        }
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
