extension DownloadError {
    /// The names of the cases this type names itself; a wrapped error brings its own name.
    enum OwnName: String, Sendable {
        /// ``DownloadError/deadlineExceeded(_:url:)``.
        case deadlineExceeded = "deadline-exceeded"
        /// ``DownloadError/write(path:operation:code:)``.
        case write
        /// ``DownloadError/cancelled(url:)``.
        case cancelled
        /// ``DownloadError/unsafeManifest(path:type:)``.
        case unsafeManifest = "unsafe-manifest"
    }

    /// A stable short name of the case, the manifest's `errorKind`: the wrapped error's own name
    /// (``FetchError/shortName``, ``ImageDecodingError/shortName``, ``ThumbnailError/shortName``,
    /// ``GeometryError/shortName``, ``ImageColorError/shortName``, ``ImageEncodingError/shortName``), or `deadline-exceeded`, `write`,
    /// `cancelled`, `unsafe-manifest`.
    public var shortName: String {
        switch self {
        case .fetch(let error): error.shortName
        case .image(let error, _): error.shortName
        case .thumbnail(let error, _): error.shortName
        case .processing(let error, _): error.shortName
        case .color(let error, _): error.shortName
        case .encoding(let error, _): error.shortName
        case .deadlineExceeded: OwnName.deadlineExceeded.rawValue
        case .write: OwnName.write.rawValue
        case .cancelled: OwnName.cancelled.rawValue
        case .unsafeManifest: OwnName.unsafeManifest.rawValue
        }
    }

    /// Whether a failure recorded as `shortName` was caused by the run (stopped, or a disk failure) rather
    /// than by the item, so a later run redoes it whatever its resume mode. Cancellation reads `cancelled`
    /// whether the batch or the HTTP layer (``FetchError/cancelled(url:)``) saw it first.
    static func isRunFailure(shortName: String?) -> Bool {
        guard let shortName, let name = OwnName(rawValue: shortName) else { return false }
        switch name {
        case .write, .cancelled, .unsafeManifest: return true
        case .deadlineExceeded: return false
        }
    }
}
