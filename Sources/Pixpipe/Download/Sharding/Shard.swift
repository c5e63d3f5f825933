import Foundation

/// A deterministic share of a list, so N machines can split one list and merge their folders.
///
/// An item belongs to shard `index` of `count` when the first 8 bytes of the SHA-256 of its URL's
/// `absoluteString`, read as a big-endian unsigned integer, modulo `count`, equal `index`. The rule
/// depends only on the URL, so every URL falls in exactly one shard whatever the list's order, and
/// duplicates of a URL land in the same shard. Names are decided over the whole list (see
/// ``Downloader``), so the shards' folders merge without clashes.
///
/// ```swift
/// options.shard = try Shard(index: 2, count: 8)   // `--shard 2/8`
/// ```
public struct Shard: Sendable, Hashable {
    /// This share, from 0.
    public var index: Int
    /// How many shares the list is split into.
    public var count: Int

    /// A shard; throws when `count < 1` or `index` is outside `0..<count`.
    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw .invalidCount(count) }
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// Whether `url` belongs to this shard.
    public func contains(_ url: URL) -> Bool {
        Self.bucket(of: URLFingerprint(url).shardValue, count: count) == index
    }

    /// Whether the URL whose `absoluteString` is `text` belongs to this shard (as ``contains(_:)`` says of it).
    public func contains(absoluteString text: Substring) -> Bool {
        var text = text
        let fingerprint = text.withUTF8 { SHA256.prefix64(of: UnsafeRawBufferPointer($0)) }
        return Self.bucket(of: fingerprint, count: count) == index
    }

    /// The shard of a URL fingerprint among `count`.
    static func bucket(of fingerprint: UInt64, count: Int) -> Int {
        Int(fingerprint % UInt64(count))
    }
}
