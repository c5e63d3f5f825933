import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The disk cache shared with other processes: one killed while writing, two writing and reading at once.
/// Serialized: each case keeps the cores busy with child processes, which run in parallel with the
/// timed tests of other suites.
@Suite(
    "Disk data cache across processes", .serialized,
    .enabled(if: CacheWorker.url != nil, "PixpipeCacheWorker is not built"))
struct DataCacheProcessTests {
    @Test(
        "A worker SIGKILLed while filling the cache leaves only entries that read back whole",
        arguments: [0.05, 0.2, 0.5])
    func killedWriter(delay: Double) throws {
        let folder = CacheFolder()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cache-worker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let keys = 12
        let worker = try CacheWorker.start(["fill", folder.url.path, "\(keys)", "\(16 << 20)"], output: log)
        // Wait until some entries exist, then a little longer, so that the kill lands mid-write.
        let deadline = Date().addingTimeInterval(20)
        while folder.fileNames().filter({ !$0.hasPrefix(".") }).count < 3, Date() < deadline, worker.isRunning {
            usleep(5_000)
        }
        usleep(UInt32(delay * 1_000_000))
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        #expect(worker.terminationReason == .uncaughtSignal)

        let names = Set(folder.fileNames().filter { !$0.hasPrefix(".") })
        #expect(names.count >= 3)
        // No limit: the kill may land between a rename and the eviction after it, and a trim on opening
        // would then remove an entry this test wants to read.
        let cache = try DataCache(directory: folder.url, sizeLimit: .max)
        var whole = Set<String>()
        for number in 0..<keys {
            let key = "key-\(number)"
            guard let data = cache.data(for: key) else { continue }
            #expect(CacheTestPayload.isValid(data, for: key), "\(key)")
            whole.insert(DataCache.fileName(for: key))
        }
        // Every file with an entry's name was one of those whole entries: none was torn or removed as damaged.
        #expect(names == whole)
        #expect(Set(folder.fileNames().filter { !$0.hasPrefix(".") }) == whole)
    }

    @Test("Two workers writing and reading one folder, and this process reading it, never get a wrong body")
    func twoWriters() throws {
        let folder = CacheFolder()
        let logs = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("cache-worker-\(UUID().uuidString)")
        }
        defer { for log in logs { try? FileManager.default.removeItem(at: log) } }
        // A limit small enough that both evict all the time, so unlinks race with reads too.
        let arguments = { (seed: Int) in ["hammer", folder.url.path, "16", "\(100 << 10)", "1500", "\(seed)"] }
        let workers = try (0..<2).map { try CacheWorker.start(arguments($0 + 1), output: logs[$0]) }
        let cache = try DataCache(directory: folder.url, sizeLimit: 100 << 10)
        var hits = 0
        var wrong = 0
        while workers.contains(where: \.isRunning) {
            for number in 0..<16 {
                let key = "key-\(number)"
                guard let data = cache.data(for: key) else { continue }
                hits += 1
                if !CacheTestPayload.isValid(data, for: key) { wrong += 1 }
            }
            // Leaves the two cores to the workers most of the time.
            usleep(2_000)
        }
        for (worker, log) in zip(workers, logs) {
            worker.waitUntilExit()
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(worker.terminationStatus == 0, "\(output)")
            #expect(output.hasPrefix("hits ") && !output.hasPrefix("hits 0 "), "\(output)")
        }
        #expect(wrong == 0)
        #expect(hits > 0)
    }
}
