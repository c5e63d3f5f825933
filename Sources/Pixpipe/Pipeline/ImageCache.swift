import Foundation
import PixpipeImage
import PixpipeLocking

/// A memory cache of decoded (and processed) images: least recently used first out, by cost.
///
/// ```swift
/// let cache = ImageCache()                                  // a limit from the machine's memory
/// let key = ImageCacheKey(url: url, processing: .thumbnail(ThumbnailOptions(size: .box(256))))
/// cache[key] = thumbnail
/// if let hit = cache[key] { show(hit) }
/// ```
///
/// An image costs the bytes of its pixels. Storing beyond ``Configuration/costLimit`` or
/// ``Configuration/countLimit`` evicts the least recently used images (a read counts as a use); an image
/// costing more than the whole limit is not stored. With ``Configuration/timeToLive``, an image older than
/// it reads as absent and is dropped. Every operation is O(1) (see `RecencyList`) and holds one lock for
/// a few pointer updates, so the cache is safe and cheap to share between any number of tasks.
public final class ImageCache: Sendable {
    /// The limits of a cache.
    public struct Configuration: Sendable, Hashable {
        /// The most bytes of pixels held at once. Default: ``defaultCostLimit``.
        public var costLimit: Int
        /// The most images held at once. Default: no limit but the cost.
        public var countLimit: Int
        /// How long an image stays usable after it is stored; `nil` (the default) for as long as it is held.
        public var timeToLive: Duration?

        /// Limits from their parts.
        public init(costLimit: Int = ImageCache.defaultCostLimit, countLimit: Int = .max, timeToLive: Duration? = nil) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.timeToLive = timeToLive
        }
    }

    /// The default cost limit: an eighth of the machine's physical memory, at most 512 MiB.
    ///
    /// An eighth leaves room for the decodes in flight (a 24 MP photo is 96 MB decoded) and for the rest of
    /// the program. The cap matters in containers, where `physicalMemory` reports the host's memory, not the
    /// container's limit; 512 MiB already holds about 2,000 thumbnails of 256 x 256 or 130 decoded 1 MP
    /// photos, beyond which a cache saves little a disk cache would not.
    public static var defaultCostLimit: Int {
        defaultCostLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory)
    }

    /// The default cost limit for a machine with `physicalMemory` bytes.
    static func defaultCostLimit(physicalMemory: UInt64) -> Int {
        Int(min(physicalMemory / 8, 512 << 20))
    }

    /// One stored image and when it stops being usable.
    private struct Entry {
        var image: Image
        var expiry: ContinuousClock.Instant?
    }

    /// The limits this cache keeps.
    public let configuration: Configuration
    private let state: Locked<RecencyList<ImageCacheKey, Entry>>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// An empty cache with `configuration`'s limits.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, now: { ContinuousClock.now })
    }

    /// An empty cache reading the time from `now` (tests pass a clock they move).
    package init(configuration: Configuration, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.configuration = configuration
        self.now = now
        state = Locked(RecencyList())
    }

    /// What an image costs: the bytes of its pixels.
    public static func cost(of image: Image) -> Int { image.pixels.count }

    /// The image for `key`, or `nil`; setting stores an image (as ``store(_:for:)``) or, with `nil`, removes it.
    public subscript(key: ImageCacheKey) -> Image? {
        get { image(for: key) }
        set {
            if let newValue { store(newValue, for: key) } else { removeImage(for: key) }
        }
    }

    /// The image for `key`, which becomes the most recently used; `nil` when absent or past its time to live.
    public func image(for key: ImageCacheKey) -> Image? {
        let instant = now()
        return state.withLock { list in
            guard let entry = list.touch(key) else { return nil }
            if let expiry = entry.expiry, expiry <= instant {
                list.remove(key)
                return nil
            }
            return entry.image
        }
    }

    /// Stores `image` for `key` as the most recently used and evicts the least recently used images until
    /// the limits hold. An image costing more than the cost limit is not stored (and any image under
    /// `key` is removed, so that the key never reads as an older image).
    public func store(_ image: Image, for key: ImageCacheKey) {
        let cost = Self.cost(of: image)
        let expiry = configuration.timeToLive.map { now() + $0 }
        let limits = configuration
        state.withLock { list in
            guard cost <= limits.costLimit, limits.countLimit > 0 else {
                list.remove(key)
                return
            }
            list.insert(Entry(image: image, expiry: expiry), for: key, cost: cost)
            while list.totalCost > limits.costLimit || list.count > limits.countLimit {
                _ = list.removeOldest()
            }
        }
    }

    /// Removes the image for `key`, if any.
    public func removeImage(for key: ImageCacheKey) {
        state.withLock { _ = $0.remove(key) }
    }

    /// Removes every image.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// Removes every image past its time to live (they are otherwise dropped when read or evicted); O(n).
    public func removeExpired() {
        let instant = now()
        state.withLock { list in
            for key in list.keysOldestFirst {
                if let expiry = list.peek(key)?.expiry, expiry <= instant { list.remove(key) }
            }
        }
    }

    /// The number of images held.
    public var count: Int { state.withLock { $0.count } }

    /// The bytes of pixels held.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The keys held, least recently used first (O(n); for inspection and tests).
    public var keys: [ImageCacheKey] { state.withLock { $0.keysOldestFirst } }
}
