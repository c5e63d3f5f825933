import Foundation
import PixpipeHTTP
import PixpipeImage

extension HTTPClient {
    /// Fetches and decodes an image, failing with the typed cases ``ImagePipeline`` uses: a decode failure is
    /// ``ImageLoadError/decoding(_:url:)`` holding the ``ImageDecodingError``, anything before it
    /// ``ImageLoadError/fetch(_:)`` (an HTML page sent instead of an image is
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
    public func image(for request: Request<Image>) async throws(ImageLoadError) -> Image {
        do {
            return try await send(request)
        } catch {
            throw ImageLoadError(error)
        }
    }

    /// Fetches and decodes the image at `url`; the same as for a `Request<Image>`.
    ///
    /// ```swift
    /// let cover = try await HTTPClient.shared.image(for: URL(string: "https://example.com/cover.png")!)
    /// ```
    public func image(for url: URL) async throws(ImageLoadError) -> Image {
        try await image(for: Request<Image>(url: url))
    }
}
