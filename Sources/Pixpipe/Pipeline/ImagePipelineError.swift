import Foundation
import PixpipeHTTP
import PixpipeImage

/// Why an ``ImagePipeline`` gave no image; every case keeps the cause, and ``shortName`` names it stably.
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
public enum ImagePipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The original bytes could not be fetched (status, timeout, transport, body cap, URL...).
    case fetch(FetchError)
    /// The original bytes are not a complete image the codecs decode.
    case decoding(ImageDecodingError, url: URL)
    /// A processing step failed (a thumbnail, resize or crop of the decoded image).
    case processing(ImageProcessingError, url: URL)
    /// The caller cancelled before the image was ready.
    case cancelled(url: URL)

    /// The error of a processing chain run on the bytes of `url`: damage found while decoding is the
    /// bytes' fault whichever step decoded them.
    init(_ error: ImageProcessingError, url: URL) {
        switch error {
        case .decoding(let error), .thumbnail(.decoding(let error)): self = .decoding(error, url: url)
        default: self = .processing(error, url: url)
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

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .fetch(let error): error.description
        case .decoding(let error, let url): "\(url.absoluteString): \(error)"
        case .processing(let error, let url): "cannot process \(url.absoluteString): \(error)"
        case .cancelled(let url): "\(url.absoluteString): cancelled"
        }
    }
}
