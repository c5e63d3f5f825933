import Foundation
import Pixpipe

/// Why the converted image could not be written.
enum OutputWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The temporary file could not be created in the destination's directory.
    case cannotCreateTemporaryFile(directory: String, errno: Int32)
    /// The folder the output goes into does not exist (nothing is created: a typo must not make folders).
    case noSuchFolder(String)
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
        case .noSuchFolder(let directory): "no such folder: \(directory)"
        case .writeFailed(let path, let code): "cannot write \(path): \(Self.message(code))"
        case .renameFailed(let destination, let code): "cannot replace \(destination): \(Self.message(code))"
        case .standardOutputFailed(let reason): "cannot write to standard output: \(reason)"
        }
    }

    /// ``noSuchFolder(_:)`` when the folder that would hold the output file `path` is missing, else `nil`;
    /// checked before decoding, so a mistyped folder fails at once.
    static func missingFolder(of path: String) -> OutputWriteError? {
        guard path != "-" else { return nil }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return FolderInputs.isFolder(directory) ? nil : .noSuchFolder(Self.folderName(of: path))
    }

    /// The folder part of `path` as the user wrote it (`out/sub` of `out/sub/a.png`).
    static func folderName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
