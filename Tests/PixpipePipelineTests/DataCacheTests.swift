import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("Disk data cache")
struct DataCacheTests {
    static let metadata = HTTPCacheMetadata(
        statusCode: 200, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60", "Content-Type": "image/png"],
        requestTime: Date(timeIntervalSince1970: 1_700_000_000),
        responseTime: Date(timeIntervalSince1970: 1_700_000_001))

    static func path(of key: String, in folder: CacheFolder) -> String {
        folder.url.appendingPathComponent(DataCache.fileName(for: key)).path
    }

    @Test("Bytes and metadata round-trip, also through a new instance over the folder")
    func roundTrip() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        let body = CacheTestPayload.body(key: "a", version: 1, size: 10_000)
        try cache.store(body, metadata: Self.metadata, for: "a")
        try cache.store(Data(), for: "empty")
        #expect(cache.entry(for: "a") == DataCacheEntry(data: body, metadata: Self.metadata))
        #expect(cache.entry(for: "empty") == DataCacheEntry(data: Data()))
        #expect(cache.entry(for: "missing") == nil)
        #expect(cache.count == 2)
        let reopened = try DataCache(directory: folder.url)
        #expect(reopened.count == 2)
        #expect(reopened.entry(for: "a")?.metadata == Self.metadata)
        #expect(reopened.data(for: "a") == body)
        try reopened.store(Data("new".utf8), for: "a")
        #expect(cache.data(for: "a") == Data("new".utf8))
        reopened.removeEntry(for: "a")
        #expect(cache.data(for: "a") == nil)
        #expect(folder.fileNames() == [DataCache.fileName(for: "empty")])
        reopened.removeAll()
        #expect(folder.fileNames().isEmpty && reopened.count == 0)
    }

    @Test("A 304's metadata replaces the stored metadata and keeps the bytes")
    func updateMetadata() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        #expect(try !cache.updateMetadata(Self.metadata, for: "a"))
        try cache.store(Data("bytes".utf8), metadata: Self.metadata, for: "a")
        let later = Self.metadata.responseTime.addingTimeInterval(600)
        let refreshed = Self.metadata.updated(
            with: ["Cache-Control": "max-age=300"], requestTime: later, responseTime: later)
        #expect(try cache.updateMetadata(refreshed, for: "a"))
        let reopened = try DataCache(directory: folder.url)
        #expect(reopened.entry(for: "a") == DataCacheEntry(data: Data("bytes".utf8), metadata: refreshed))
        #expect(HTTPCachePolicy.http.use(refreshed, now: later.addingTimeInterval(100)) == .fresh)
    }

    @Test("After writing three times the limit the folder is under it and the most recent entries survive")
    func sizeLimit() throws {
        let folder = CacheFolder()
        let limit = 1_000_000
        let cache = try DataCache(directory: folder.url, sizeLimit: limit)
        try cache.store(CacheTestPayload.body(key: "hot", version: 0, size: 50_000), for: "hot")
        for number in 0..<60 {
            try cache.store(CacheTestPayload.body(key: "k\(number)", version: 0, size: 50_000), for: "k\(number)")
            // Read often, so never the least recently used.
            #expect(cache.data(for: "hot") != nil)
        }
        #expect(folder.totalSize() <= limit)
        #expect(cache.totalSize == folder.totalSize())
        for number in 50..<60 { #expect(cache.data(for: "k\(number)") != nil, "k\(number)") }
        #expect(cache.data(for: "hot") != nil)
        for number in 0..<30 { #expect(cache.data(for: "k\(number)") == nil, "k\(number)") }
        // An entry larger than the whole limit is not stored and removes the older one.
        try cache.store(Data(count: limit + 1), for: "k59")
        #expect(cache.data(for: "k59") == nil)
    }

    @Test("Opening orders entries by modification time and trims to the limit oldest first")
    func reopenOrder() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        for number in 0..<5 {
            try cache.store(CacheTestPayload.body(key: "k\(number)", version: 0, size: 10_000), for: "k\(number)")
        }
        // Modification times in the order 3, 1, 4, 0, 2 (oldest first).
        for (rank, number) in [3, 1, 4, 0, 2].enumerated() {
            let date = Date(timeIntervalSince1970: 1_700_000_000 + TimeInterval(rank) * 60)
            try FileManager.default.setAttributes(
                [.modificationDate: date], ofItemAtPath: Self.path(of: "k\(number)", in: folder))
        }
        let small = try DataCache(directory: folder.url, sizeLimit: 35_000)
        // Over the limit, so trimmed to 90% of it: three entries of about 10 KB remain.
        #expect(small.count == 3)
        for number in [3, 1] { #expect(small.data(for: "k\(number)") == nil) }
        for number in [4, 0, 2] { #expect(small.data(for: "k\(number)") != nil) }
    }

    @Test("A hit refreshes an old modification time, so the next process sees the use")
    func lazyTouch() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        try cache.store(Data("x".utf8), for: "a")
        let path = Self.path(of: "a", in: folder)
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        let reopened = try DataCache(directory: folder.url)
        #expect(reopened.data(for: "a") != nil)
        let touched = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(touched.map { Date().timeIntervalSince($0) < 60 } == true)
    }

    @Test("A flipped byte anywhere, a truncation or zeros read as a miss and remove the entry")
    func damagedEntries() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        let body = CacheTestPayload.body(key: "a", version: 1, size: 4_000)
        try cache.store(body, metadata: Self.metadata, for: "a")
        let path = Self.path(of: "a", in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged: [(String, Data)] = [
            ("truncated", whole.prefix(whole.count / 2)), ("header only", whole.prefix(56)), ("empty", Data()),
            ("zeros", Data(count: whole.count)), ("one byte more", whole + [0]),
        ]
        for offset in [0, 5, 9, 14, 20, 30, 60, whole.count / 2, whole.count - 1] {
            var flipped = whole
            flipped[offset] ^= 0x10
            damaged.append(("flipped at \(offset)", flipped))
        }
        for (name, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(cache.entry(for: "a") == nil, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(name)")
            #expect(cache.count == 0, "\(name)")
        }
        // A whole entry stored under another key's file name is not returned for this key.
        try cache.store(body, for: "b")
        try FileManager.default.copyItem(atPath: Self.path(of: "b", in: folder), toPath: path)
        #expect(cache.entry(for: "a") == nil)
        #expect(cache.data(for: "b") == body)
    }

    @Test("Opening removes killed writers' temporary files once old, and ignores other files")
    func leftovers() throws {
        let folder = CacheFolder()
        _ = try DataCache(directory: folder.url)
        let old = folder.url.appendingPathComponent(".\(String(repeating: "a", count: 64)).part-ABCDEF").path
        let young = folder.url.appendingPathComponent(".\(String(repeating: "b", count: 64)).part-ABCDEF").path
        let other = folder.url.appendingPathComponent("README").path
        for path in [old, young, other] { _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: old)
        let cache = try DataCache(directory: folder.url)
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: young))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(cache.count == 0)
    }

    @Test("A path that is a file cannot be a cache folder")
    func notAFolder() throws {
        let folder = CacheFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let file = folder.url.appendingPathComponent("file")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(throws: DataCacheError.self) { try DataCache(directory: file) }
    }

    @Test("Many tasks storing and reading one folder get only bodies stored for their keys")
    func concurrentTasks() async throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url, sizeLimit: 100_000)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<200 {
                        let key = "k\((task + step * 3) % 20)"
                        if step % 2 == 0 {
                            let body = CacheTestPayload.body(key: key, version: UInt64(task << 16 | step), size: 5_000)
                            try? cache.store(body, for: key)
                        } else if let data = cache.data(for: key), !CacheTestPayload.isValid(data, for: key) {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(folder.totalSize() <= 100_000)
    }
}
