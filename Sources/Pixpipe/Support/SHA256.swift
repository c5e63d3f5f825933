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
/// The hasher owns a libcrypto digest context, so it cannot be copied (a copy would share the running
/// state); it frees the context when it goes away. Every digest uses the one algorithm object fetched at
/// first use: in OpenSSL 3, `EVP_sha256()` is a stub that makes each digest start look the algorithm up by
/// name again (a lock, string compares, a reference count), which cost 270 of the 420 ns of the SHA-256 of
/// a URL, and a resumed batch hashes each of its URLs several times (fingerprints, names).
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

    /// The running digest context; `nil` only if libcrypto could not allocate one, which `init` traps on.
    private let context: OpaquePointer

    /// A hasher with the standard initial state.
    package init() {
        // Allocation of a few hundred bytes failing, or SHA-256 missing from libcrypto, leaves nothing to
        // recover: every caller needs the digest.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Algorithm.shared.pointer, nil) == 1 else {
            fatalError("libcrypto cannot start a SHA-256 digest")
        }
        self.context = context
    }

    /// Starts over, as a new hasher would, keeping the context (one hasher can serve many files).
    package mutating func reset() {
        guard EVP_DigestInit_ex(context, Algorithm.shared.pointer, nil) == 1 else {
            fatalError("libcrypto cannot start a SHA-256 digest")
        }
    }

    deinit {
        EVP_MD_CTX_free(context)
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
        // Cannot fail for SHA-256 on a valid context.
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything fed so far; the hasher is then spent.
    package mutating func finalize() -> Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        _ = EVP_DigestFinal_ex(context, &bytes, &length)
        return Digest(bytes: bytes)
    }
}

extension SHA256 {
    /// libcrypto's SHA-256 algorithm object, fetched once for the process.
    ///
    /// Why `@unchecked Sendable` is safe: the pointer is set once, by the `static let` (which Swift
    /// initializes exactly once, thread-safely), and never changed or freed; OpenSSL documents fetched
    /// algorithm objects as reference counted and safe to use from any number of threads at once.
    fileprivate struct Algorithm: @unchecked Sendable {
        let pointer: OpaquePointer

        static let shared: Algorithm = {
            guard let pointer = EVP_MD_fetch(nil, "SHA256", nil) else {
                fatalError("libcrypto has no SHA-256")
            }
            return Algorithm(pointer: pointer)
        }()
    }
}
