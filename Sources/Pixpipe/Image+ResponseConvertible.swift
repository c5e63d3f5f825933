import Foundation
import PixpipeHTTP
import PixpipeImage

extension Image: ResponseConvertible {
    /// Decodes a body in any format the codec table decodes (`pixpipe formats` lists them), the format
    /// sniffed from the bytes (never from `Content-Type`); an animation gives its first frame.
    ///
    /// `Request<Image>` keeps the default ``ResponseConvertible/defaultAcceptableContentTypes`` (`nil`, any
    /// type): servers label images loosely (`application/octet-stream`, `image/jpg`), so a list of media
    /// types would refuse images the bytes prove decodable. Every codec's ``ImageFormat/mediaTypes`` is
    /// therefore accepted, and so is a wrong label on a valid image.
    ///
    /// A failure is ``ConversionError/underlying(_:)`` holding the ``ImageDecodingError``, or
    /// ``ConversionError/htmlPage(title:excerpt:)`` when the body is an HTML page. To catch decode failures
    /// by case, as ``ImagePipeline`` throws them, use ``HTTPClient/image(for:)``, or map an
    /// error with `ImageLoadError.init(_:)`.
    ///
    /// ```swift
    /// let image = try await client.send(Request<Image>(url: url))
    /// let same = try await client.image(for: url)   // throws ImageLoadError: .decoding(...), .fetch(...)
    /// ```
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        guard ImageFormat.sniff(body) != nil else {
            let recognized = RecognizedContent(body: body, contentType: metadata.contentType)
            throw .underlying(ImageDecodingError.unsupportedFormat(recognized: recognized))
        }
        do {
            try self.init(data: body)
        } catch {
            throw .underlying(error)
        }
    }
}
