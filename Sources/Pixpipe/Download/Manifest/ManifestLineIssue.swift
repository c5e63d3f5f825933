/// A line of an output folder's manifest that a run could not use, and why.
///
/// The manifest lives in a folder others may have written, so its lines are read as untrusted: a line that
/// does not parse, that is longer than ``ManifestReader/maxLineBytes``, or whose `name` is not one this
/// program writes (``StoredName/isValid(_:)``) is ignored, and the item it was about is fetched again as
/// new. The line itself stays in the file (only a torn last line is ever cut).
///
/// ```swift
/// for issue in summary.manifestIssues { print("line \(issue.line): \(issue.reason.shortName)") }
/// ```
public struct ManifestLineIssue: Sendable, Hashable, CustomStringConvertible {
    /// Why a line was ignored.
    public enum Reason: Sendable, Hashable {
        /// The line is not a record (not JSON, or without the fields a record needs).
        case unreadable
        /// The line is longer than the reader's bound.
        case tooLong(limit: Int)
        /// The line's `name` is not a name this program writes: a path, an absolute or hidden name, a control
        /// character.
        case unsafeName

        /// A stable short name: `unreadable-manifest-line`, `manifest-line-too-long`, `unsafe-stored-name`.
        public var shortName: String {
            switch self {
            case .unreadable: "unreadable-manifest-line"
            case .tooLong: "manifest-line-too-long"
            case .unsafeName: "unsafe-stored-name"
            }
        }
    }

    /// The line's number in the manifest, from 1.
    public var line: Int
    /// Why it was ignored.
    public var reason: Reason

    /// An issue of line `line`.
    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// A one-line explanation for people; it quotes nothing of the line, which may hold anything.
    public var description: String {
        switch reason {
        case .unreadable: "line \(line) is not a manifest record; ignored"
        case .tooLong(let limit): "line \(line) is longer than \(limit) bytes; ignored"
        case .unsafeName:
            "line \(line) names a file this program does not write (a path, a hidden name, a control character);"
                + " ignored, never taken as a stored file"
        }
    }
}
