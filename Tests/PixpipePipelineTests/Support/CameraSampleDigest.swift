import Foundation
import Pixpipe

/// The SHA-256 of an image's 8-bit samples as the corpora's `references.tsv` files give them: row-major from
/// the top-left, channels interleaved, widened or narrowed to the reference's channel count.
enum CameraSampleDigest {
    /// The lowercase hex SHA-256 of `image`'s samples as `channels` channels of 8 bits.
    static func sha256(_ image: Image, channels: Int) -> String {
        let layout = PixelLayout(channels: channels) ?? .rgba
        let target = PixelFormat(layout: layout, bitsPerSample: 8)
        let converted = image.pixelFormat == target ? image : image.converted(to: target)
        return SHA256.hash(converted.pixels).hexString
    }
}
