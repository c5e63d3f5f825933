import Foundation
import Pixpipe
import PixpipeLocking
import Testing

@Suite("Memory image cache")
struct ImageCacheTests {
    static let url = URL(string: "https://example.com/a.png")!

    /// A gray image of `bytes` pixels (one byte each), filled with `value`.
    static func image(bytes: Int, value: UInt8 = 0) -> Image {
        Image(width: bytes, height: 1, pixelFormat: .gray8, pixels: [UInt8](repeating: value, count: bytes))
    }

    static func key(_ number: Int) -> ImageCacheKey {
        ImageCacheKey(url: URL(string: "https://example.com/\(number).png")!)
    }

    @Test("The least recently used image goes first; a read counts as a use")
    func evictionOrder() {
        let cache = ImageCache(configuration: .init(costLimit: 300))
        for number in 0..<3 { cache.store(Self.image(bytes: 100), for: Self.key(number)) }
        #expect(cache[Self.key(0)] != nil)
        cache.store(Self.image(bytes: 100), for: Self.key(3))
        #expect(cache[Self.key(1)] == nil)
        #expect(cache.keys == [Self.key(2), Self.key(0), Self.key(3)])
        cache.store(Self.image(bytes: 100), for: Self.key(4))
        #expect(cache.keys == [Self.key(0), Self.key(3), Self.key(4)])
    }

    @Test("The cost limit holds; an image above the whole limit is not stored and drops the key")
    func costLimit() {
        let cache = ImageCache(configuration: .init(costLimit: 1_000))
        for number in 0..<10 { cache.store(Self.image(bytes: 300), for: Self.key(number)) }
        #expect(cache.totalCost == 900)
        #expect(cache.count == 3)
        #expect(cache.keys == [Self.key(7), Self.key(8), Self.key(9)])
        cache.store(Self.image(bytes: 1_001), for: Self.key(9))
        #expect(cache[Self.key(9)] == nil)
        #expect(cache.totalCost == 600)
        // Replacing an entry replaces its cost.
        cache.store(Self.image(bytes: 50), for: Self.key(8))
        #expect(cache.totalCost == 350)
        #expect(ImageCache.cost(of: Image(width: 10, height: 10, pixelFormat: .rgba8)) == 400)
    }

    @Test("The count limit holds")
    func countLimit() {
        let cache = ImageCache(configuration: .init(costLimit: .max, countLimit: 2))
        for number in 0..<5 { cache.store(Self.image(bytes: 1), for: Self.key(number)) }
        #expect(cache.keys == [Self.key(3), Self.key(4)])
        let none = ImageCache(configuration: .init(countLimit: 0))
        none.store(Self.image(bytes: 1), for: Self.key(0))
        #expect(none.count == 0)
    }

    @Test("An image past its time to live reads as absent and is dropped")
    func timeToLive() {
        let clock = TestClock()
        let cache = ImageCache(configuration: .init(timeToLive: .seconds(10)), now: { clock.now })
        cache.store(Self.image(bytes: 10), for: Self.key(0))
        clock.advance(by: .seconds(5))
        cache.store(Self.image(bytes: 10), for: Self.key(1))
        clock.advance(by: .seconds(4))
        #expect(cache[Self.key(0)] != nil)
        clock.advance(by: .seconds(1))
        #expect(cache[Self.key(0)] == nil)
        #expect(cache.count == 1)
        #expect(cache[Self.key(1)] != nil)
        clock.advance(by: .seconds(5))
        cache.removeExpired()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("One URL at three sizes is three entries; equal processing is one")
    func sizesAreEntries() {
        let cache = ImageCache()
        let sizes = [64, 128, 256].map { ImageCacheKey(url: Self.url, processing: .thumbnail(.init(size: .box($0)))) }
        for (index, key) in sizes.enumerated() { cache[key] = Self.image(bytes: 10, value: UInt8(index)) }
        #expect(cache.count == 3)
        #expect(Set(sizes).count == 3)
        #expect(cache[sizes[1]]?.pixels.first == 1)
        let again = ImageCacheKey(url: Self.url, processors: [.thumbnail(.init(size: .box(128)))])
        #expect(again == sizes[1])
        #expect(ImageCacheKey(url: Self.url) != sizes[0])
        #expect(ImageCacheKey(url: Self.url).description == Self.url.absoluteString)
        cache[sizes[0]] = nil
        #expect(cache.count == 2)
    }

    @Test("Many tasks storing, reading and removing at once keep the totals consistent")
    func concurrentUse() async {
        let cache = ImageCache(configuration: .init(costLimit: 50 * 64, countLimit: 40))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<2_000 {
                        let key = Self.key((task * 31 + step * 7) % 100)
                        switch step % 4 {
                        case 0, 1: cache.store(Self.image(bytes: 64, value: UInt8(step % 256)), for: key)
                        case 2: _ = cache[key]
                        default: if step % 40 == 3 { cache.removeImage(for: key) } else { _ = cache[key] }
                        }
                    }
                }
            }
        }
        #expect(cache.count <= 40)
        #expect(cache.totalCost == cache.count * 64)
        #expect(cache.keys.count == cache.count)
        #expect(Set(cache.keys).count == cache.count)
    }

    @Test("The default cost limit is an eighth of memory, at most 512 MiB")
    func defaultLimit() {
        #expect(ImageCache.defaultCostLimit > 0)
        #expect(ImageCache.defaultCostLimit <= 512 << 20)
        #expect(ImageCache.Configuration().costLimit == ImageCache.defaultCostLimit)
    }
}
