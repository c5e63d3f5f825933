import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A cache folder someone else can write to: what sits at an entry's name is not trusted to be an entry.
@Suite("Disk data cache in a folder others touched")
struct DataCacheFolderTrustTests {
    private static func path(of key: String, in folder: CacheFolder) -> String {
        folder.url.appendingPathComponent(DataCache.fileName(for: key)).path
    }

    private static func lstatus(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    @Test("A FIFO at an entry's name is a miss, without waiting for a writer")
    func fifo() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        let path = Self.path(of: "k", in: folder)
        try #require(mkfifo(path, 0o600) == 0)
        // Without O_NONBLOCK this `open` waits for a writer that never comes, and the test never ends.
        #expect(cache.entry(for: "k") == nil)
        // A second instance indexes the folder with the FIFO in it, and misses too.
        #expect(try DataCache(directory: folder.url).entry(for: "k") == nil)
    }

    @Test("A link at an entry's name is a miss, even to a whole entry, and its target is untouched")
    func symbolicLink() throws {
        let folder = CacheFolder()
        let elsewhere = CacheFolder()
        // A whole entry for the same key, in another folder: following the link would make it a hit.
        let other = try DataCache(directory: elsewhere.url)
        try other.store(Data("planted".utf8), for: "k")
        let target = Self.path(of: "k", in: elsewhere)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))

        let cache = try DataCache(directory: folder.url)
        let path = Self.path(of: "k", in: folder)
        try #require(symlink(target, path) == 0)
        #expect(cache.entry(for: "k") == nil)
        #expect(try DataCache(directory: folder.url).count == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        #expect(other.data(for: "k") == Data("planted".utf8))
    }

    @Test("The folder is created owner-only and entries are written owner-only")
    func modes() throws {
        let folder = CacheFolder()
        let cache = try DataCache(directory: folder.url)
        try cache.store(Data("body".utf8), for: "k")
        try cache.store(Data("again".utf8), for: "k")
        try cache.store(Data("other".utf8), for: "j")
        #expect(Self.lstatus(folder.url.path).map { $0.st_mode & 0o777 } == 0o700)
        #expect(Self.lstatus(Self.path(of: "k", in: folder)).map { $0.st_mode & 0o777 } == 0o600)
        #expect(Self.lstatus(Self.path(of: "j", in: folder)).map { $0.st_mode & 0o777 } == 0o600)
    }
}

/// Huge files at an entry's name, read by a child process whose peak memory is its own.
@Suite(
    "Disk data cache: reads bounded by the header and the limit", .serialized,
    .enabled(if: CacheWorker.url != nil, "PixpipeCacheWorker is not built"))
struct DataCacheBoundedReadTests {
    static let hugeSize: off_t = 900 << 20

    /// The worker's `read` of `key` in `folder` with `limit`: its answer and its peak resident memory in KiB.
    private func read(_ key: String, in folder: CacheFolder, limit: Int) throws -> (answer: String, peakKiB: Int) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cache-worker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let worker = try CacheWorker.start(["read", folder.url.path, key, "\(limit)"], output: log)
        worker.waitUntilExit()
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        try #require(worker.terminationStatus == 0, "\(lines)")
        let peak = try #require(lines.last.flatMap { Int($0.split(separator: " ").last ?? "") })
        return (String(try #require(lines.first)), peak)
    }

    /// Makes the file at `path` `size` bytes long without writing them (a sparse file costs no disk).
    private func extend(_ path: String, to size: off_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, size) == 0)
    }

    @Test("A 900 MB file of zeros at an entry's name is a miss read in a few bytes, and is removed")
    func hugeZeros() throws {
        let folder = CacheFolder()
        let small = try read("k", in: folder, limit: 4 << 30)
        let path = folder.url.appendingPathComponent(DataCache.fileName(for: "k")).path
        try extend(path, to: Self.hugeSize)
        // A limit above the file's size, so that only the header check bounds the read.
        let huge = try read("k", in: folder, limit: 4 << 30)
        #expect(small.answer == "miss" && huge.answer == "miss")
        #expect(huge.peakKiB < small.peakKiB + 64 << 10, "peak \(huge.peakKiB) KiB, baseline \(small.peakKiB) KiB")
        #expect(access(path, F_OK) != 0)
    }

    @Test("A whole entry grown to 900 MB behind its header is a miss, read no further, and is removed")
    func entryGrownBehindItsHeader() throws {
        let folder = CacheFolder()
        try DataCache(directory: folder.url).store(Data(repeating: 7, count: 1_000), for: "k")
        let whole = try read("k", in: folder, limit: 4 << 30)
        let path = folder.url.appendingPathComponent(DataCache.fileName(for: "k")).path
        try extend(path, to: Self.hugeSize)
        let grown = try read("k", in: folder, limit: 4 << 30)
        #expect(whole.answer == "hit 1000")
        #expect(grown.answer == "miss")
        #expect(grown.peakKiB < whole.peakKiB + 64 << 10, "peak \(grown.peakKiB) KiB, baseline \(whole.peakKiB) KiB")
        #expect(access(path, F_OK) != 0)
    }

    @Test("A file over the cache's limit is a miss without being read")
    func overTheLimit() throws {
        let folder = CacheFolder()
        try DataCache(directory: folder.url).store(Data(repeating: 7, count: 1_000), for: "k")
        let path = folder.url.appendingPathComponent(DataCache.fileName(for: "k")).path
        try extend(path, to: Self.hugeSize)
        let answer = try read("k", in: folder, limit: 1 << 20)
        #expect(answer.answer == "miss")
        #expect(answer.peakKiB < 200 << 10, "peak \(answer.peakKiB) KiB")
    }
}
