import Foundation
import PixpipeLocking

/// Why one item was not stored: the shared load chain's error (fetch, decoding, processing, cancelled) or
/// a stage of the downloader's own; every case keeps the cause, and ``shortName`` names it stably for the
/// manifest.
///
/// ```swift
/// if case .load(.decoding(.truncated, _)) = error { ... }
/// print(error.shortName)   // "truncated-image"
/// ```
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image could not be loaded: fetched (status, timeout, transport, body cap, redirect, URL...),
    /// decoded or processed, or the batch was cancelled first; the same cases ``ImagePipeline`` throws.
    case load(ImageLoadError)
    /// The processed image could not be encoded.
    case encoding(ImageEncodingError, url: URL)
    /// The item took longer than ``DownloadOptions/itemDeadline``, retries included.
    case deadlineExceeded(Duration, url: URL)
    /// A file could not be written: `operation` (`open`, `write`, `fsync`, `rename`...) on `path` failed
    /// with the system error `code` (`ENOSPC` when the disk is full). This stops the batch.
    case write(path: String, operation: String, code: Int32)
    /// The output folder's manifest at `path` is `type` (a symbolic link, a FIFO, a folder...), not a regular
    /// file: refused before anything is read or written, since following it would read and write elsewhere.
    /// This stops the batch before it starts; ``FolderVerifier`` refuses such a manifest the same way.
    case unsafeManifest(path: String, type: String)
    /// The manifest at `path` could not be opened for ``FolderVerifier`` (`errno` `code`; `ENOENT`: there is
    /// none).
    case manifestUnreadable(path: String, code: Int32)

    /// The error of a processing step for the item at `url`, as the load chain names it (see
    /// ``ImageLoadError/init(_:url:)``).
    init(_ error: ImageProcessingError, url: URL) {
        self = .load(ImageLoadError(error, url: url))
    }

    /// Whether another transfer may succeed: a body that came in truncated or damaged is fetched again.
    /// Only warnings that lose pixels become these errors (strict decoding); a benign one (see
    /// ``DecodeWarning/Kind/benign``) never does, so its item is stored `ok` at the first attempt.
    var isRetryableContent: Bool {
        if case .load(let error) = self { error.isRetryableContent } else { false }
    }

    /// A one-line explanation for people, with control characters from outside (a URL, a server's body, a
    /// path) escaped, so it is safe to print and to store in the manifest.
    public var description: String {
        switch self {
        case .load(let error): error.description
        case .encoding(let error, let url): UntrustedText.escaped("cannot encode \(url.absoluteString): \(error)")
        case .deadlineExceeded(let deadline, let url):
            UntrustedText.escaped("\(url.absoluteString) not done within \(deadline)")
        case .write(let path, let operation, let code):
            UntrustedText.escaped("cannot \(operation) \(path): \(String(cString: strerror(code)))")
        case .unsafeManifest(let path, let type):
            UntrustedText.escaped(
                "the manifest \(path) is \(type), not a regular file: refused (move it away, or choose another --out)")
        case .manifestUnreadable(let path, let code):
            UntrustedText.escaped("cannot open \(path): \(String(cString: strerror(code)))")
        }
    }
}

extension DownloadError {
    /// The names of the cases this type names itself; a wrapped error brings its own name.
    enum OwnName: String, Sendable {
        /// ``DownloadError/deadlineExceeded(_:url:)``.
        case deadlineExceeded = "deadline-exceeded"
        /// ``DownloadError/write(path:operation:code:)``.
        case write
        /// ``ImageLoadError/cancelled(url:)`` and ``HTTPError/cancelled(url:)``, whichever saw it first.
        case cancelled
        /// ``DownloadError/unsafeManifest(path:type:)``.
        case unsafeManifest = "unsafe-manifest"
        /// ``DownloadError/manifestUnreadable(path:code:)``.
        case manifestUnreadable = "manifest-unreadable"
    }

    /// A stable short name of the case, the manifest's `errorKind`: the load chain's (see
    /// ``ImageLoadError/shortName``), ``ImageEncodingError/shortName``, or `deadline-exceeded`, `write`,
    /// `unsafe-manifest`, `manifest-unreadable`.
    public var shortName: String {
        switch self {
        case .load(let error): error.shortName
        case .encoding(let error, _): error.shortName
        case .deadlineExceeded: OwnName.deadlineExceeded.rawValue
        case .write: OwnName.write.rawValue
        case .unsafeManifest: OwnName.unsafeManifest.rawValue
        case .manifestUnreadable: OwnName.manifestUnreadable.rawValue
        }
    }

    /// Whether a failure recorded as `shortName` was caused by the run (stopped, or a disk failure) rather
    /// than by the item, so a later run redoes it whatever its resume mode. Cancellation reads `cancelled`
    /// whether the batch or the HTTP layer (``HTTPError/cancelled(url:)``) saw it first.
    static func isRunFailure(shortName: String?) -> Bool {
        guard let shortName, let name = OwnName(rawValue: shortName) else { return false }
        switch name {
        case .write, .cancelled, .unsafeManifest, .manifestUnreadable: return true
        case .deadlineExceeded: return false
        }
    }
}

extension DownloadError {
    // The cases before the load chain was shared: constructors kept for code that builds them. A pattern
    // cannot be kept; match `.load(...)` instead.

    /// The former `fetch` case: now ``load(_:)`` holding ``ImageLoadError/fetch(_:)``.
    @available(*, deprecated, message: "use .load(.fetch(error))")
    public static func fetch(_ error: HTTPError) -> DownloadError { .load(.fetch(error)) }

    /// The former `image` case: now ``load(_:)`` holding ``ImageLoadError/decoding(_:url:)``.
    @available(*, deprecated, message: "use .load(.decoding(error, url: url))")
    public static func image(_ error: ImageDecodingError, url: URL) -> DownloadError {
        .load(.decoding(error, url: url))
    }

    /// The former `thumbnail` case: now ``load(_:)`` holding ``ImageLoadError/processing(_:url:)``.
    @available(*, deprecated, message: "use .load(.processing(error, url: url))")
    public static func thumbnail(_ error: ImageProcessingError, url: URL) -> DownloadError {
        .load(.processing(error, url: url))
    }

    /// The former `processing` case: now ``load(_:)`` holding ``ImageLoadError/processing(_:url:)``.
    @available(*, deprecated, message: "use .load(.processing(error, url: url))")
    public static func processing(_ error: ImageProcessingError, url: URL) -> DownloadError {
        .load(.processing(error, url: url))
    }

    /// The former `color` case: now ``load(_:)`` holding ``ImageLoadError/processing(_:url:)``.
    @available(*, deprecated, message: "use .load(.processing(error, url: url))")
    public static func color(_ error: ImageProcessingError, url: URL) -> DownloadError {
        .load(.processing(error, url: url))
    }

    /// The former `cancelled` case: now ``load(_:)`` holding ``ImageLoadError/cancelled(url:)``.
    @available(*, deprecated, message: "use .load(.cancelled(url: url))")
    public static func cancelled(url: URL) -> DownloadError { .load(.cancelled(url: url)) }

    /// The former `FolderVerificationError.manifestNotRegularFile`: now ``unsafeManifest(path:type:)``.
    @available(*, deprecated, message: "use .unsafeManifest(path: path, type: ...)")
    public static func manifestNotRegularFile(path: String) -> DownloadError {
        .unsafeManifest(path: path, type: "not a regular file")
    }
}

/// The former error of ``FolderVerifier``: its two cases are ``DownloadError/manifestUnreadable(path:code:)``
/// and ``DownloadError/unsafeManifest(path:type:)``, the downloader's own refusal of the same manifest.
@available(*, deprecated, renamed: "DownloadError")
public typealias FolderVerificationError = DownloadError
