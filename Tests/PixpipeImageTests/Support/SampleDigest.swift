import CLibCrypto
import Foundation
import PixpipeImage

/// SHA-256 of an image's samples as the corpus references hash them: row-major, channels interleaved,
/// 8-bit samples as bytes, 16-bit samples big-endian.
enum SampleDigest {
    /// The lowercase hex SHA-256 of `image`'s samples.
    static func sha256(_ image: Image) -> String {
        var bytes = image.pixels
        if image.pixelFormat.bitsPerSample == 16 {
            bytes.withUnsafeMutableBytes { raw in
                let samples = raw.bindMemory(to: UInt16.self)
                for index in samples.indices { samples[index] = samples[index].bigEndian }
            }
        }
        return sha256(bytes)
    }

    /// The lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
