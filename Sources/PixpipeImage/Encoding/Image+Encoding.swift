import Foundation

extension Image {
    /// Encodes the image with `encoding`'s codec.
    ///
    /// Each format stores what it can: JPEG stores 8-bit gray or RGB (alpha is composited over white and
    /// 16-bit samples are reduced to 8 bits first); PNG stores every pixel format as it is.
    public func encoded(as encoding: ImageEncoding) throws(ImageEncodingError) -> Data {
        guard let codec = ImageCodecs.codec(for: encoding.format), codec.canEncode else {
            throw .unsupportedFormat(encoding.format)
        }
        return try codec.encode(self, options: encoding.options)
    }
}
