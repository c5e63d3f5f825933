internal import CLibCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions where it has them (several
/// times the speed of portable code; the downloader hashes every byte it stores).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Data("abc".utf8))
/// let hex = hasher.finalize().hexString   // "ba7816bf..."
/// let once = SHA256.hash(Data("abc".utf8))
/// ```
///
/// The hasher keeps libcrypto's low-level SHA-256 state inline (`SHA256_CTX`, about 100 bytes) and cannot
/// be copied, so one running digest never forks by accident. The low-level calls run the same block
/// function as the EVP interface with none of its machinery: no context allocated per hasher, no algorithm
/// looked up by name (270 of the 420 ns of a URL's digest through EVP in OpenSSL 3), and no `@unchecked
/// Sendable` algorithm object to share between threads.
package struct SHA256: ~Copyable {
    /// A finished 32-byte digest.
    package struct Digest: Sendable, Hashable {
        /// The 32 bytes, most significant first.
        package let bytes: [UInt8]

        /// Lowercase hexadecimal, 64 characters.
        package var hexString: String {
            // Written straight into the string's storage: one allocation (it was three: the digits' array,
            // the characters' array and the string), once per stored or skipped file.
            String(unsafeUninitializedCapacity: bytes.count * 2) { output in
                func digit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }
                for (position, byte) in bytes.enumerated() {
                    output[2 * position] = digit(byte >> 4)
                    output[2 * position + 1] = digit(byte & 0x0F)
                }
                return bytes.count * 2
            }
        }

        /// The first 8 bytes read as a big-endian integer (used for sharding and compact sets of seen URLs).
        package var prefix64: UInt64 {
            bytes.prefix(8).reduce(0) { ($0 << 8) | UInt64($1) }
        }
    }

    /// The running state.
    private var context = SHA256_CTX()

    /// A hasher with the standard initial state.
    package init() {
        reset()
    }

    /// Starts over, as a new hasher would (one hasher can serve many files).
    package mutating func reset() {
        // The low-level calls fail only on a null context, which this is not.
        guard SHA256_Init(&context) == 1 else { fatalError("libcrypto cannot start a SHA-256 digest") }
    }

    /// The digest of `data` in one call.
    package static func hash<Bytes: DataProtocol>(_ data: Bytes) -> Digest {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The first 8 bytes of the digest of `bytes`, big-endian (``Digest/prefix64``), with no allocation:
    /// fingerprints of URLs and names are taken several times per item of a list, so this uses libcrypto's
    /// low-level calls on a context on the stack (see the CLibCrypto shim: a third of `EVP_Digest`'s time).
    package static func prefix64(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            var context = SHA256_CTX()
            // The low-level calls fail only on a null context, which this is not.
            guard
                SHA256_Init(&context) == 1, SHA256_Update(&context, bytes.baseAddress, bytes.count) == 1,
                SHA256_Final(digest.baseAddress, &context) == 1
            else { fatalError("libcrypto cannot compute a SHA-256 digest") }
            return digest.prefix(8).reduce(0) { ($0 << 8) | UInt64($1) }
        }
    }

    /// ``prefix64(of:)`` of the UTF-8 of `text`.
    package static func prefix64(ofUTF8 text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { prefix64(of: UnsafeRawBufferPointer($0)) }
    }

    /// Feeds more bytes.
    package mutating func update<Bytes: DataProtocol>(_ data: Bytes) {
        for region in data.regions {
            region.withUnsafeBytes { update(bytes: $0) }
        }
    }

    /// Feeds the bytes of a raw buffer.
    package mutating func update(bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // Cannot fail on a valid context.
        _ = SHA256_Update(&context, base, bytes.count)
    }

    /// The digest of everything fed so far; the hasher is then spent.
    package mutating func finalize() -> Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = SHA256_Final(&bytes, &context)
        return Digest(bytes: bytes)
    }
}
