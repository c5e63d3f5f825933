import Foundation

/// The first 8 bytes of the SHA-256 of a URL's absolute string, big-endian: a compact, stable identity.
///
/// Sets of fingerprints cost 8 bytes per URL, which keeps the batch's duplicate detection and resume index
/// small however long the list; two different URLs share a fingerprint with probability about 2^-64.
struct URLFingerprint: Hashable, Sendable {
    /// The 64-bit value.
    let value: UInt64

    /// The fingerprint of `url`.
    init(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// The fingerprint of a URL string as written in the manifest.
    init(absoluteString: String) {
        value = SHA256.prefix64(ofUTF8: absoluteString)
    }
}
