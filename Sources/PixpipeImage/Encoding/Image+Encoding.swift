import Foundation

extension Image {
    /// Encodes the image as PNG or JPEG.
    ///
    /// JPEG stores 8-bit gray or RGB: alpha is composited over white and 16-bit samples are
    /// reduced to 8 bits first. PNG stores every pixel format as it is.
    public func encoded(as encoding: ImageEncoding) throws(ImageEncodingError) -> Data {
        switch encoding {
        case .png(let options): try PNGEncoder.encode(self, options: options)
        case .jpeg(let options): try JPEGEncoder.encode(self, options: options)
        }
    }
}
