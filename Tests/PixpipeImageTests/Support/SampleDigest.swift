import Pixpipe

@testable import PixpipeImage

/// SHA-256 of decoded samples, as the corpora's `references.tsv` files give them.
enum SampleDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(bytes).hexString
    }

    /// The SHA-256 of `image`'s samples as 8-bit RGBA (gray and RGB expanded, alpha 255 where there is none).
    static func rgba8(_ image: Image) -> String {
        sampleDigest(image, channels: 4, bitDepth: 8)
    }
}
