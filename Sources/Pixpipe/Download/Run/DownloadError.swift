import Foundation
import PixpipeLocking

/// Why one item was not stored; every case keeps the cause, and ``shortName`` names it stably for the manifest.
///
/// ```swift
/// if case .image(.truncated) = error { ... }
/// print(error.shortName)   // "truncated-image"
/// ```
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP layer failed (status, timeout, transport, body cap, redirect, URL, scheme...).
    case fetch(FetchError)
    /// The body is not a complete, valid image of a format the codecs decode.
    case image(ImageDecodingError, url: URL)
    /// The thumbnail could not be made.
    case thumbnail(ThumbnailError, url: URL)
    /// A resize or crop of the processing failed.
    case processing(GeometryError, url: URL)
    /// A colour conversion of the processing failed (a damaged or unusable ICC profile).
    case color(ImageColorError, url: URL)
    /// The processed image could not be encoded.
    case encoding(ImageEncodingError, url: URL)
    /// The item took longer than ``DownloadOptions/itemDeadline``, retries included.
    case deadlineExceeded(Duration, url: URL)
    /// A file could not be written: `operation` (`open`, `write`, `fsync`, `rename`...) on `path` failed
    /// with the system error `code` (`ENOSPC` when the disk is full). This stops the batch.
    case write(path: String, operation: String, code: Int32)
    /// The batch was cancelled before the item was done.
    case cancelled(url: URL)
    /// The output folder's manifest at `path` is `type` (a symbolic link, a FIFO, a folder...), not a regular
    /// file: refused before anything is read or written, since following it would read and write elsewhere.
    /// This stops the batch before it starts.
    case unsafeManifest(path: String, type: String)

    /// The error of a processing step for the item at `url`: damage found while decoding is the body's fault,
    /// like any other decode (and retried when truncated).
    init(_ error: ImageProcessingError, url: URL) {
        switch error {
        case .decoding(let error), .thumbnail(.decoding(let error)): self = .image(error, url: url)
        case .thumbnail(let error): self = .thumbnail(error, url: url)
        case .geometry(let error): self = .processing(error, url: url)
        case .color(let error): self = .color(error, url: url)
        }
    }

    /// Whether another transfer may succeed: a body that came in truncated or damaged is fetched again.
    /// Only warnings that lose pixels become these errors (strict decoding); a benign one (see
    /// ``DecodeWarning/Kind/benign``) never does, so its item is stored `ok` at the first attempt.
    var isRetryableContent: Bool {
        switch self {
        case .image(.truncated, _), .image(.corrupt, _): true
        default: false
        }
    }

    /// A one-line explanation for people, with control characters from outside (a URL, a server's body, a
    /// path) escaped, so it is safe to print and to store in the manifest.
    public var description: String {
        UntrustedText.escaped(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case .fetch(let error): error.description
        case .image(let error, let url): "\(url.absoluteString): \(error)"
        case .thumbnail(let error, let url): "cannot thumbnail \(url.absoluteString): \(error)"
        case .processing(let error, let url): "cannot process \(url.absoluteString): \(error)"
        case .color(let error, let url): "cannot convert the colours of \(url.absoluteString): \(error)"
        case .encoding(let error, let url): "cannot encode \(url.absoluteString): \(error)"
        case .deadlineExceeded(let deadline, let url): "\(url.absoluteString) not done within \(deadline)"
        case .write(let path, let operation, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case .cancelled(let url): "\(url.absoluteString): cancelled"
        case .unsafeManifest(let path, let type):
            "the manifest \(path) is \(type), not a regular file: refused (move it away, or choose another --out)"
        }
    }
}
