import Foundation
import PixpipeHTTP
import PixpipeImage
import PixpipeLocking

/// Why loading an image gave none: the fetch -> decode -> process chain that ``ImagePipeline``,
/// `HTTPClient.image(for:)` and the downloader (as ``DownloadError/load(_:)``) all run. Every case keeps the
/// cause, and ``shortName`` names it stably.
///
/// ```swift
/// do {
///     let image = try await pipeline.image(for: url)
/// } catch .fetch(.httpStatus(let code, _, _)) {
///     print("answered \(code)")
/// } catch {
///     print(error.shortName, error)   // "truncated-image", "cancelled", ...
/// }
/// ```
public enum ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The original bytes could not be fetched (status, timeout, transport, body cap, URL...).
    case fetch(HTTPError)
    /// The original bytes are not a complete image the codecs decode.
    case decoding(ImageDecodingError, url: URL)
    /// A processing step failed (a thumbnail, resize, crop or colour conversion of the decoded image).
    case processing(ImageProcessingError, url: URL)
    /// The caller cancelled before the image was ready.
    case cancelled(url: URL)

    /// The error of a processing chain run on the bytes of `url`: damage found while decoding is the
    /// bytes' fault whichever step decoded them (a thumbnail decodes too), so it is ``decoding(_:url:)``.
    public init(_ error: ImageProcessingError, url: URL) {
        switch error {
        case .decoding(let error): self = .decoding(error, url: url)
        default: self = .processing(error, url: url)
        }
    }

    /// The case for a failed `Request<Image>` (or any fetch): a decode failure of the body becomes
    /// ``decoding(_:url:)``, a cancellation ``cancelled(url:)``, anything else ``fetch(_:)``.
    ///
    /// ```swift
    /// client.send(Request<Image>(url: url)) { result in
    ///     if case .failure(let error) = result, case .decoding(let reason, _) = ImageLoadError(error) {
    ///         print("not a usable image:", reason)
    ///     }
    /// }
    /// ```
    public init(_ error: HTTPError) {
        switch error {
        case .conversionFailed(.underlying(let decoding as ImageDecodingError), let url?):
            self = .decoding(decoding, url: url)
        case .cancelled(let url?):
            self = .cancelled(url: url)
        default:
            self = .fetch(error)
        }
    }

    /// The URL the error is about, when known.
    public var url: URL? {
        switch self {
        case .fetch(let error): error.url
        case .decoding(_, let url), .processing(_, let url), .cancelled(let url): url
        }
    }

    /// Whether the original bytes themselves are bad (so a disk cache must not keep them): not an image,
    /// corrupt or truncated. Limits (pixels, frames, input size) say nothing against the bytes.
    var condemnsBytes: Bool {
        switch self {
        case .decoding(.unsupportedFormat, _), .decoding(.corrupt, _), .decoding(.truncated, _): true
        default: false
        }
    }

    /// Whether another transfer may succeed: bytes that came in truncated or damaged may come whole the next
    /// time. Only warnings that lose pixels become these errors (strict decoding), never a benign one.
    var isRetryableContent: Bool {
        switch self {
        case .decoding(.truncated, _), .decoding(.corrupt, _): true
        default: false
        }
    }

    /// A stable short name of the case: the wrapped error's own name (``HTTPError/shortName``,
    /// ``ImageDecodingError/shortName``, ``ImageProcessingError/shortName``), or `cancelled`.
    public var shortName: String {
        switch self {
        case .fetch(let error): error.shortName
        case .decoding(let error, _): error.shortName
        case .processing(let error, _): error.shortName
        case .cancelled: "cancelled"
        }
    }

    /// A one-line explanation for people that names the failed step, with control characters from outside (a
    /// URL, a server's body) escaped, so it is safe to print and to store in a manifest.
    public var description: String {
        UntrustedText.escaped(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case .fetch(let error): error.description
        case .decoding(let error, let url): "\(url.absoluteString): \(error)"
        case .processing(let error, let url) where error.isThumbnailRefusal:
            "cannot thumbnail \(url.absoluteString): \(error)"
        case .processing(let error, let url) where error.isColorConversion:
            "cannot convert the colours of \(url.absoluteString): \(error)"
        case .processing(let error, let url): "cannot process \(url.absoluteString): \(error)"
        case .cancelled(let url): "\(url.absoluteString): cancelled"
        }
    }
}

/// The former name of ``ImageLoadError``, from when only ``ImagePipeline`` threw it.
@available(*, deprecated, renamed: "ImageLoadError")
public typealias ImagePipelineError = ImageLoadError
