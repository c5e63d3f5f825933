import Foundation
import PixpipeHTTP
import PixpipeImage

extension Image: ResponseConvertible {
    /// Decodes a PNG or JPEG body, the format sniffed from the bytes (never from `Content-Type`).
    ///
    /// A failure is ``ConversionError/underlying(_:)`` holding the ``ImageDecodingError``.
    ///
    /// ```swift
    /// let image = try await client.send(Request<Image>(url: url))
    /// ```
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        guard ImageFormat.sniff(body) != nil else {
            throw .underlying(ImageDecodingError.unsupportedFormat)
        }
        do {
            try self.init(data: body)
        } catch {
            throw .underlying(error)
        }
    }
}
