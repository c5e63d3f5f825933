import CLibCrypto
import Foundation

@testable import PixpipeImage

/// SHA-256 of decoded samples, as the corpora's `references.tsv` files give them: row-major, channels
/// interleaved, 8-bit samples as bytes, 16-bit samples big-endian.
enum SampleDigest {
    /// The lowercase hex SHA-256 of `bytes`, through libcrypto directly: the image tests link the image layer
    /// alone, not the downloader's hashing.
    static func sha256(_ bytes: some ContiguousBytes) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBytes { buffer in
            _ = SHA256(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, &digest)
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The lowercase hex SHA-256 of `image`'s samples as they are (no layout change).
    static func sha256(_ image: Image) -> String {
        sampleDigest(image, channels: image.pixelFormat.channels, bitDepth: image.pixelFormat.bitsPerSample)
    }

    /// The SHA-256 of `image`'s samples as 8-bit RGBA (gray and RGB expanded, alpha 255 where there is none).
    static func rgba8(_ image: Image) -> String {
        sampleDigest(image, channels: 4, bitDepth: 8)
    }
}
