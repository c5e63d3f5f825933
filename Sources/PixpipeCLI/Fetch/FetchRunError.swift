/// Why `pixpipe fetch` could not run a batch at all (as opposed to items failing).
enum FetchRunError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list could not be read, or has no url column.
    case unusableList(path: String, reason: String)
    /// The output folder or the manifest could not be written.
    case cannotWrite(path: String, reason: String)

    /// A one-line explanation.
    var description: String {
        switch self {
        case .unusableList(let path, let reason): "\(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
