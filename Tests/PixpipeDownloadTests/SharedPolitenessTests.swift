import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Shards writing to one folder keep a host's politeness together: three downloaders with the same output
/// folder, each with its own shard and so its own shared-file handles (`flock` belongs to the open file, so
/// they exclude each other as separate processes would).
@Suite("Politeness shared by shards", .serialized)
struct SharedPolitenessTests {
    /// Options for shard `index` of `count` in `folder`, each shard with its own manifest.
    static func shardOptions(_ folder: TemporaryFolder, index: Int, count: Int) throws -> DownloadOptions {
        var options = testOptions(folder)
        options.shard = try Shard(index: index, count: count)
        options.manifestName = "manifest-\(index).jsonl"
        return options
    }

    /// Items for `path` on `server`, at least `perShard` in each of `count` shards.
    static func items(_ server: TestHTTPServer, _ path: String, perShard: Int, count: Int) throws -> [DownloadItem] {
        let shards = try (0..<count).map { try Shard(index: $0, count: count) }
        var items: [DownloadItem] = []
        var number = 0
        while shards.contains(where: { shard in items.filter { shard.contains($0.url) }.count < perShard }) {
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)?n=\(number)"))
            items.append(DownloadItem(url: url, name: "n\(number).png"))
            number += 1
        }
        return items
    }

    @Test("Three shards together never have more than --per-host requests in flight to the host")
    func perHostAcrossShards() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let counter = InFlightCounter()
        let body = Bodies.png()
        let perHost = 2
        server.route(
            "/held.png",
            .handler { _ in
                counter.enter("host")
                // Each answer waits while the server sees no more than the limit: a shard over it would show
                // as a third request in flight during this wait, however the shards are scheduled.
                Thread.sleep(forTimeInterval: 0.15)
                counter.leave("host")
                return .respond(body: body)
            })
        let items = try Self.items(server, "/held.png", perShard: 3, count: 3)
        let summaries = try await withThrowingTaskGroup(of: DownloadSummary.self) { group in
            for index in 0..<3 {
                var options = try Self.shardOptions(folder, index: index, count: 3)
                options.perHostConcurrency = perHost
                group.addTask { await Downloader(options: options).download(items) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(summaries.map(\.ok).reduce(0, +) == items.count)
        #expect(counter.peak("host") <= perHost)
        #expect(server.requestCount("/held.png") == items.count)
    }

    @Test("A 503 with Retry-After seen by one shard pauses the host for every shard")
    func retryAfterAcrossShards() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let body = Bodies.png()
        let pausedAt = Locked<ContinuousClock.Instant?>(nil)
        let arrivals = Locked([ContinuousClock.Instant]())
        server.route(
            "/busy.png",
            .handler { _ in
                let now = ContinuousClock.now
                let first = pausedAt.withLock { value -> Bool in
                    defer { if value == nil { value = now } }
                    return value == nil
                }
                if first { return .retryAfter(status: 503, value: "1") }
                arrivals.withLock { $0.append(now) }
                return .respond(body: body)
            })
        let items = try Self.items(server, "/busy.png", perShard: 2, count: 3)
        let summaries = try await withThrowingTaskGroup(of: DownloadSummary.self) { group in
            for index in 0..<3 {
                var options = try Self.shardOptions(folder, index: index, count: 3)
                // One request in flight for all shards: the 503 is told to the pace file before any other
                // request may start, so every later one must wait for the pause.
                options.perHostConcurrency = 1
                group.addTask { await Downloader(options: options).download(items) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(summaries.map(\.ok).reduce(0, +) == items.count)
        let paused = try #require(pausedAt.withLock { $0 })
        let later = arrivals.withLock { $0 }
        #expect(later.count == items.count)
        // The pause is kept on the wall clock in the shared file; 10 ms allow for its rate against this clock.
        for arrival in later { #expect(arrival - paused >= .milliseconds(990), "\(arrival - paused)") }
    }

    @Test("A slowdown seen by one shard spaces every shard's requests")
    func slowdownAcrossShards() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let body = Bodies.png()
        let slowedAt = Locked<ContinuousClock.Instant?>(nil)
        let arrivals = Locked([ContinuousClock.Instant]())
        server.route(
            "/busy.png",
            .handler { _ in
                let now = ContinuousClock.now
                let first = slowedAt.withLock { value -> Bool in
                    defer { if value == nil { value = now } }
                    return value == nil
                }
                if first { return .respond(status: 503, body: []) }
                arrivals.withLock { $0.append(now) }
                return .respond(body: body)
            })
        let items = try Self.items(server, "/busy.png", perShard: 2, count: 3)
        let summaries = try await withThrowingTaskGroup(of: DownloadSummary.self) { group in
            for index in 0..<3 {
                var options = try Self.shardOptions(folder, index: index, count: 3)
                options.perHostConcurrency = 1
                group.addTask { await Downloader(options: options).download(items) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(summaries.map(\.ok).reduce(0, +) == items.count)
        let slowed = try #require(slowedAt.withLock { $0 })
        // After the 503 the host's interval is 50 ms and shrinks by a fifth with each success, whichever
        // shard has it: the k-th later request comes no sooner than the sum of the first k intervals.
        var bound = Duration.zero
        var slowdown = Duration.milliseconds(50)
        for arrival in arrivals.withLock({ $0.sorted() }) {
            bound += slowdown
            slowdown = slowdown * 4 / 5
            if slowdown < .milliseconds(10) { slowdown = .zero }
            #expect(arrival - slowed >= bound - .milliseconds(2), "\(arrival - slowed) < \(bound)")
        }
    }

    @Test("When the shared files cannot be made, a shard keeps its own limits and still downloads")
    func fallbackWithoutSharedFiles() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let counter = InFlightCounter()
        let body = Bodies.png()
        server.route(
            "/held.png",
            .handler { _ in
                counter.enter("host")
                Thread.sleep(forTimeInterval: 0.05)
                counter.leave("host")
                return .respond(body: body)
            })
        // A file where the shared folder would go: no slot or pace file can be made under it.
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.url.path + "/.pixpipe", contents: Data()))
        var options = try Self.shardOptions(folder, index: 0, count: 1)
        options.perHostConcurrency = 2
        let items = try Self.items(server, "/held.png", perShard: 6, count: 1)
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == items.count)
        #expect(counter.peak("host") <= 2)
        var isFolder: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: folder.url.path + "/.pixpipe", isDirectory: &isFolder))
        #expect(!isFolder.boolValue)
    }
}
