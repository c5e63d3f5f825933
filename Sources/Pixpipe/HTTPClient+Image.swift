import Foundation
import PixpipeHTTP
import PixpipeImage

extension HTTPClient {
    /// Fetches and decodes an image, failing with the typed cases ``ImagePipeline`` uses: a decode failure is
    /// ``ImagePipelineError/decoding(_:url:)`` holding the ``ImageDecodingError``, anything before it
    /// ``ImagePipelineError/fetch(_:)`` (an HTML page sent instead of an image is
    /// `.fetch(.conversionFailed(.htmlPage(...), _))`).
    ///
    /// ```swift
    /// do {
    ///     let image = try await client.image(for: Request<Image>(path: "cover.jpg"))
    /// } catch .decoding(.truncated(let format, _), let url) {
    ///     print("\(url) is a cut-short \(format) file")
    /// } catch .fetch(.httpStatus(404, _, _)) {
    ///     print("no such image")
    /// } catch {
    ///     print(error.shortName, error)
    /// }
    /// ```
    public func image(for request: Request<Image>) async throws(ImagePipelineError) -> Image {
        do {
            return try await send(request)
        } catch {
            throw ImagePipelineError(error)
        }
    }

    /// Fetches and decodes the image at `url`; the same as for a `Request<Image>`.
    ///
    /// ```swift
    /// let cover = try await HTTPClient.shared.image(for: URL(string: "https://example.com/cover.png")!)
    /// ```
    public func image(for url: URL) async throws(ImagePipelineError) -> Image {
        try await image(for: Request<Image>(url: url))
    }
}

extension ImagePipelineError {
    /// The pipeline's case for a failed `Request<Image>`: a decode failure becomes
    /// ``decoding(_:url:)``, a cancellation ``cancelled(url:)``, anything else ``fetch(_:)``.
    ///
    /// ```swift
    /// client.send(Request<Image>(url: url)) { result in
    ///     if case .failure(let error) = result, case .decoding(let reason, _) = ImagePipelineError(error) {
    ///         print("not a usable image:", reason)
    ///     }
    /// }
    /// ```
    public init(_ error: FetchError) {
        switch error {
        case .conversionFailed(.underlying(let decoding as ImageDecodingError), let url?):
            self = .decoding(decoding, url: url)
        case .cancelled(let url?):
            self = .cancelled(url: url)
        default:
            self = .fetch(error)
        }
    }
}
