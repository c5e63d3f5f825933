import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

@Suite("Resume, shards, disk errors and cancellation", .serialized)
struct ResumeTests {
    private func serve(_ count: Int, on server: TestHTTPServer) -> [DownloadItem] {
        (0..<count).map { number in
            server.route("/img\(number).png", .respond(body: Bodies.png(seed: number)))
            return DownloadItem(url: server.url("/img\(number).png"))
        }
    }

    @Test("A run killed mid-way (torn manifest line, leftover .part file) resumes to the same folder")
    func resumeAfterKill() async throws {
        let server = try TestHTTPServer()
        let items = serve(4, on: server)
        let reference = TemporaryFolder()
        _ = await Downloader(options: testOptions(reference)).download(items)

        // The killed run: two items recorded, the third renamed but its line torn, a temporary file left.
        let killed = TemporaryFolder()
        _ = await Downloader(options: testOptions(killed)).download(Array(items.prefix(3)))
        let manifestURL = killed.url.appendingPathComponent("manifest.jsonl")
        let lines = try #require(FileManager.default.contents(atPath: manifestURL.path))
            .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        let torn = lines[0] + [UInt8(ascii: "\n")] + lines[1] + [UInt8(ascii: "\n")] + lines[2].prefix(25)
        try Data(torn).write(to: manifestURL)
        try Data([1, 2, 3]).write(to: killed.url.appendingPathComponent(".img3.png.part-Ab12Cd"))
        let requestsBefore = (0..<4).map { server.requestCount("/img\($0).png") }

        let events = await collectEvents(Downloader(options: testOptions(killed)), items)
        let requestsAfter = (0..<4).map { server.requestCount("/img\($0).png") }
        // Lines are in completion order: the torn one may be any of the first three items.
        let tornRecord = try JSONDecoder().decode(ManifestRecord.self, from: Data(lines[2]))
        let expected = items.map { $0.url.absoluteString == tornRecord.url || $0.url.path == "/img3.png" ? 1 : 0 }
        #expect(zip(requestsAfter, requestsBefore).map { $0 - $1 } == expected)
        #expect(summary(events).map { ($0.ok, $0.skipped) } ?? (0, 0) == (2, 2))
        #expect(killed.names() == reference.names())
        for name in reference.imageNames() { #expect(killed.contents(name) == reference.contents(name)) }
        #expect(Set(killed.manifest().map(\.url)) == Set(items.map(\.url.absoluteString)))
    }

    @Test("A stored file that changed is downloaded again")
    func changedFileIsRedone() async throws {
        let server = try TestHTTPServer()
        let items = serve(2, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        try Data([0]).write(to: folder.url.appendingPathComponent("img1.png"))
        let second = await Downloader(options: testOptions(folder)).download(items)
        #expect(second.ok == 1 && second.skipped == 1)
        #expect(folder.contents("img1.png") == Bodies.png(seed: 1))
    }

    @Test("Failures are kept by a plain rerun and redone by retryFailed; redoAll redoes everything")
    func retryFailed() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        server.route("/good.png", .respond(body: Bodies.png()))
        server.route("/late.png", .respond(status: 404, body: []))
        let items = [DownloadItem(url: server.url("/good.png")), DownloadItem(url: server.url("/late.png"))]
        let first = await Downloader(options: testOptions(folder)).download(items)
        #expect(first.ok == 1 && first.failed == 1)

        server.route("/late.png", .respond(body: Bodies.png(seed: 9)))
        let plain = await Downloader(options: testOptions(folder)).download(items)
        #expect(plain.skipped == 2 && server.requestCount("/late.png") == 1)

        var options = testOptions(folder)
        options.resume = .retryFailed
        let retried = await Downloader(options: options).download(items)
        #expect(retried.ok == 1 && retried.skipped == 1)
        #expect(server.requestCount("/good.png") == 1 && server.requestCount("/late.png") == 2)

        options.resume = .redoAll
        let redone = await Downloader(options: options).download(items)
        #expect(redone.ok == 2 && server.requestCount("/good.png") == 2)
    }

    @Test("Shards split the list and their folders merge into the unsharded result without clashes")
    func shardsMerge() async throws {
        let server = try TestHTTPServer()
        server.route("/a/pic.png", .respond(body: Bodies.png(seed: 1)))
        server.route("/b/pic.png", .respond(body: Bodies.png(seed: 2)))
        server.route("/c/pic.png", .respond(body: Bodies.png(seed: 3)))
        let items = ["/a/pic.png", "/b/pic.png", "/c/pic.png"].map { DownloadItem(url: server.url($0)) }
        let whole = TemporaryFolder()
        _ = await Downloader(options: testOptions(whole)).download(items)
        var merged: [String: [UInt8]] = [:]
        for index in 0..<2 {
            let part = TemporaryFolder()
            var options = testOptions(part)
            options.shard = try Shard(index: index, count: 2)
            _ = await Downloader(options: options).download(items)
            for name in part.imageNames() {
                #expect(merged[name] == nil)
                merged[name] = part.contents(name)
            }
        }
        #expect(merged.keys.sorted() == whole.imageNames())
        for (name, bytes) in merged { #expect(whole.contents(name) == bytes) }
    }

    @Test("A full disk stops the batch with a disk error; the manifest lists exactly the files written")
    func diskFull() async throws {
        let server = try TestHTTPServer()
        // Enough items that the few already downloaded and queued for the writer when the disk fills (the
        // pipeline overlaps transfers with writes) can never be all of them.
        let items = serve(40, on: server)
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        options.concurrency = 1
        let events = await collectEvents(Downloader(options: options, writer: FailingWriter(allowed: 2)), items)
        let result = try #require(summary(events))
        guard case .diskError(let message) = result.stopReason else {
            Issue.record("expected a disk error, got \(String(describing: result.stopReason))")
            return
        }
        #expect(message.contains(String(cString: strerror(ENOSPC))))
        #expect(result.ok == 2)
        let written = folder.manifest().filter { $0.status == .ok }.compactMap(\.name).sorted()
        #expect(written == folder.imageNames())
        #expect(folder.manifest().contains { $0.errorKind == "write" })
        #expect(records(events).count < items.count)
    }

    @Test("An output folder that cannot be created is a disk error")
    func unwritableFolder() async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let blocker = folder.url.appendingPathComponent("file")
        try Data([1]).write(to: blocker)
        let options = testOptions(TemporaryFolder())
        var blocked = options
        blocked.outputDirectory = blocker.appendingPathComponent("out")
        let result = await Downloader(options: blocked).download([
            DownloadItem(url: try #require(URL(string: "http://127.0.0.1:1/a.png")))
        ])
        guard case .diskError = result.stopReason else {
            Issue.record("expected a disk error, got \(String(describing: result.stopReason))")
            return
        }
    }

    @Test("Cancelling the consumer stops the batch, ends with .stopped, and leaves no temporary file")
    func cancellation() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        server.route("/fast.png", .respond(body: Bodies.png()))
        server.route("/slow.png", .delayHeaders(seconds: 30, then: .respond(body: Bodies.png())))
        var items = [DownloadItem(url: server.url("/fast.png"))]
        items += (0..<20).map { DownloadItem(url: server.url("/slow.png?\($0)")) }
        let downloader = Downloader(options: testOptions(folder))
        let consumer = Task {
            var events: [DownloadEvent] = []
            for await event in downloader.run(items) { events.append(event) }
            return events
        }
        #expect(await server.waitForRequests("/slow.png", count: 4, timeout: 10))
        #expect(await server.waitForCompletedResponses("/fast.png", count: 1, timeout: 10))
        consumer.cancel()
        let events = await consumer.value
        let result = try #require(summary(events))
        #expect(result.stopReason == .cancelled)
        #expect(result.ok <= 1)
        #expect(!folder.names().contains { $0.contains(".part-") })
        #expect(folder.manifest().allSatisfy { $0.status == .ok })
        #expect(server.requestCount("/slow.png") < 20)
    }
}
