internal import CLibCrypto
import Foundation

/// The first 16 bytes of the SHA-256 of a URL's absolute string: a compact, stable identity that a list's
/// author cannot forge.
///
/// The batch's duplicate detection (``SeenURLs``) and the resume index (``PriorIndex``) keep 8 bytes of it
/// per URL in their hash tables (a keyed digest of it, or its first half with the second compared in the
/// record), which keeps them small however long the list. The identity decides whether an item is skipped as a duplicate of another
/// and which resume record it reads, and whoever writes a list chooses its URLs: with 64 bits, two URLs
/// sharing a fingerprint could be found with about 2^32 hashes (a birthday search, minutes of work), and
/// one of them would then be skipped, or read the other's record. With 128 bits that search takes about
/// 2^64 hashes, and matching a given URL about 2^128. The first 8 bytes (``shardValue``) are also what
/// ``Shard`` buckets by, unchanged, so that shards agree across machines and versions; sharding is a
/// division of work, not a security boundary.
struct URLFingerprint: Hashable, Sendable {
    /// The first 8 bytes of the digest, big-endian: the value shards are chosen by.
    let shardValue: UInt64
    /// The next 8 bytes, big-endian.
    let low: UInt64

    /// The fingerprint of `url`.
    init(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// The fingerprint of a URL string as written in the manifest.
    init(absoluteString: String) {
        var text = absoluteString
        self = text.withUTF8 { Self(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// A fingerprint from its two halves (for tests that need two URLs to share the first).
    init(shardValue: UInt64, low: UInt64) {
        self.shardValue = shardValue
        self.low = low
    }

    /// The fingerprint of the bytes `bytes`, with no allocation (libcrypto's low-level calls on a context on
    /// the stack, as ``SHA256/prefix64(of:)``; one digest gives both halves).
    private init(bytes: UnsafeRawBufferPointer) {
        (shardValue, low) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            var context = SHA256_CTX()
            // The low-level calls fail only on a null context, which this is not.
            guard
                SHA256_Init(&context) == 1, SHA256_Update(&context, bytes.baseAddress, bytes.count) == 1,
                SHA256_Final(digest.baseAddress, &context) == 1
            else { fatalError("libcrypto cannot compute a SHA-256 digest") }
            let word = { (start: Int) in digest[start..<start + 8].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } }
            return (word(0), word(8))
        }
    }
}

/// The URLs a batch has seen, to skip a later duplicate: 8 bytes per URL, and no list's author can make two
/// different URLs look alike.
///
/// A set of whole ``URLFingerprint``s took 16 bytes per URL, 8 MB more at the peak of a 200,000-URL run
/// (its table has room for twice the URLs, and doubles when full). Here each fingerprint is reduced to 64
/// bits by a keyed hash (SipHash, as `Hasher`), with a key drawn at random for each set and never shown:
/// without it, a list's author cannot search for two URLs whose reductions agree, and two URLs agree by
/// chance with probability about 2^-64 per pair (1 in 10^9 for a list of 200,000). The resume index, whose
/// records outlive the process and are read by other runs, compares the whole fingerprint instead
/// (``PriorIndex``).
struct SeenURLs {
    /// The secret key, per set.
    private let key: (UInt64, UInt64)
    private var digests = Set<UInt64>()

    /// An empty set with a fresh key.
    init() {
        var random = SystemRandomNumberGenerator()
        key = (random.next(), random.next())
    }

    /// Adds the URL with `fingerprint`; `false` when the set already had it.
    mutating func insert(_ fingerprint: URLFingerprint) -> Bool {
        var hasher = Hasher()
        hasher.combine(key.0)
        hasher.combine(key.1)
        hasher.combine(fingerprint.shardValue)
        hasher.combine(fingerprint.low)
        return digests.insert(UInt64(bitPattern: Int64(hasher.finalize()))).inserted
    }
}
