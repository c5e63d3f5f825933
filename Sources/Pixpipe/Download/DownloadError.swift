import Foundation

/// Why one item was not stored; every case keeps the cause, and ``kind`` names it stably for the manifest.
///
/// ```swift
/// if case .image(.truncated) = error { ... }
/// print(error.kind)   // "truncated-image"
/// ```
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP layer failed (status, timeout, transport, body cap, redirect, URL, scheme...).
    case fetch(FetchError)
    /// The body is not a complete, valid PNG or JPEG.
    case image(ImageDecodingError, url: URL)
    /// The thumbnail could not be made.
    case thumbnail(ThumbnailError, url: URL)
    /// The processed image could not be encoded.
    case encoding(ImageEncodingError, url: URL)
    /// The item took longer than ``DownloadOptions/itemDeadline``, retries included.
    case deadlineExceeded(Duration, url: URL)
    /// A file could not be written: `operation` (`open`, `write`, `fsync`, `rename`...) on `path` failed
    /// with the system error `code` (`ENOSPC` when the disk is full). This stops the batch.
    case write(path: String, operation: String, code: Int32)
    /// The batch was cancelled before the item was done.
    case cancelled(url: URL)

    /// A stable name for the manifest's `errorKind`.
    public var kind: String {
        switch self {
        case .fetch(let error): Self.kind(of: error)
        case .image(let error, _): Self.kind(of: error)
        case .thumbnail(.decoding(let error), _): Self.kind(of: error)
        case .thumbnail(.sourceTooLarge, _): "too-large-image"
        case .thumbnail, .encoding: "processing"
        case .deadlineExceeded: "timeout"
        case .write: "write"
        case .cancelled: "cancelled"
        }
    }

    /// Whether another transfer may succeed: a body that came in truncated or damaged is fetched again.
    var isRetryableContent: Bool {
        switch self {
        case .image(.truncated, _), .image(.corrupt, _): true
        default: false
        }
    }

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .fetch(let error): error.description
        case .image(let error, let url): "\(url.absoluteString): \(error)"
        case .thumbnail(let error, let url): "cannot thumbnail \(url.absoluteString): \(error)"
        case .encoding(let error, let url): "cannot encode \(url.absoluteString): \(error)"
        case .deadlineExceeded(let deadline, let url): "\(url.absoluteString) not done within \(deadline)"
        case .write(let path, let operation, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case .cancelled(let url): "\(url.absoluteString): cancelled"
        }
    }

    private static func kind(of error: FetchError) -> String {
        switch error {
        case .invalidURL: "invalid-url"
        case .unsupportedScheme: "unsupported-scheme"
        case .invalidRequestBody: "request"
        case .transport: "transport"
        case .timedOut: "timeout"
        case .cancelled: "cancelled"
        case .httpStatus: "http-status"
        case .unacceptableContentType: "content-type"
        case .bodyTooLarge: "body-too-large"
        case .tooManyRedirects, .insecureRedirect: "redirect"
        case .conversionFailed: "conversion"
        }
    }

    private static func kind(of error: ImageDecodingError) -> String {
        switch error {
        case .unsupportedFormat: "not-an-image"
        case .corrupt, .unreadable: "corrupt-image"
        case .truncated: "truncated-image"
        case .unsupportedFeature: "unsupported-image"
        case .tooLarge, .inputTooLarge, .tooManyFrames, .animationTooLarge: "too-large-image"
        }
    }
}
