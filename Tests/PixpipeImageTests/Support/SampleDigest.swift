import CLibCrypto

@testable import PixpipeImage

/// SHA-256 of decoded samples, as the corpora's `references.tsv` files give them (OpenSSL's libcrypto).
enum SampleDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            _ = digest.withUnsafeMutableBufferPointer { output in
                SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The SHA-256 of `image`'s samples as 8-bit RGBA (gray and RGB expanded, alpha 255 where there is none).
    static func rgba8(_ image: Image) -> String {
        sha256(image.converted(to: .rgba8).pixels)
    }
}
