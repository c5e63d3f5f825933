import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("Image pipeline: priorities and prefetching")
struct ImagePipelinePriorityTests {
    let server: TestHTTPServer
    let client: HTTPClient
    let arrivals = ArrivalLog()

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    /// Routes `paths` to the test image, logging arrivals; `gated` waits for `gate` first.
    func route(_ paths: [String], gated: String, gate: Gate) {
        let png = PipelineFixture.png()
        let arrivals = self.arrivals
        for path in paths + [gated] {
            server.route(
                path,
                .handler { request in
                    arrivals.record(request.path)
                    if request.path == gated { gate.wait() }
                    return .respond(body: png)
                })
        }
    }

    @Test("With one download at a time, queued downloads go most urgent first, then in order of arrival")
    func downloadOrder() async throws {
        let gate = Gate()
        route(["/a", "/b", "/c", "/d", "/e"], gated: "/blocker", gate: gate)
        let pipeline = PipelineFixture.pipeline(client: client, downloads: 1)
        let blocker = pipeline.imageTask(with: ImageRequest(url: server.url("/blocker")))
        #expect(await server.waitForRequests("/blocker", count: 1, timeout: 10))
        let priorities: [(String, ImageRequest.Priority)] = [
            ("/a", .low), ("/b", .high), ("/c", .normal), ("/d", .veryHigh), ("/e", .normal),
        ]
        let tasks = priorities.map { path, priority in
            pipeline.imageTask(with: ImageRequest(url: server.url(path), priority: priority))
        }
        gate.open()
        _ = try await blocker.image
        for task in tasks { _ = try await task.image }
        #expect(arrivals.order == ["/blocker", "/d", "/b", "/c", "/e", "/a"])
    }

    @Test("A priority changed while queued reorders the queue")
    func priorityChange() async throws {
        let gate = Gate()
        route(["/a", "/b", "/c"], gated: "/blocker", gate: gate)
        let pipeline = PipelineFixture.pipeline(client: client, downloads: 1)
        let blocker = pipeline.imageTask(with: ImageRequest(url: server.url("/blocker")))
        #expect(await server.waitForRequests("/blocker", count: 1, timeout: 10))
        let a = pipeline.imageTask(with: ImageRequest(url: server.url("/a"), priority: .low))
        let b = pipeline.imageTask(with: ImageRequest(url: server.url("/b")))
        let c = pipeline.imageTask(with: ImageRequest(url: server.url("/c")))
        a.priority = .veryHigh
        c.priority = .veryLow
        #expect(a.priority == .veryHigh)
        gate.open()
        for task in [blocker, a, b, c] { _ = try await task.image }
        #expect(arrivals.order == ["/blocker", "/a", "/b", "/c"])
        // A finished task keeps its last priority and ignores changes.
        c.priority = .high
        #expect(c.priority == .veryLow)
    }

    @Test("With one decode at a time, queued decodes go most urgent first; a change while queued counts")
    func decodeOrder() async throws {
        let serverGate = Gate()
        route([], gated: "/one.png", gate: serverGate)
        let pipeline = PipelineFixture.pipeline(client: client, decodes: 1)
        let url = server.url("/one.png")
        let decodeGate = Gate()
        let log = ArrivalLog()
        func task(_ label: String, _ priority: ImageRequest.Priority, gate: Gate? = nil) -> ImageTask {
            pipeline.imageTask(
                with: ImageRequest(
                    url: url, processing: [RecordingStep(label: label, log: log, gate: gate)], priority: priority))
        }
        // All five wait for the one download; the blocker's decode then holds the only decode slot.
        let blocker = task("blocker", .veryHigh, gate: decodeGate)
        let x = task("x", .low)
        let y = task("y", .high)
        let z = task("z", .normal)
        let w = task("w", .veryLow)
        serverGate.open()
        #expect(await eventually { decodeGate.arrived == 1 })
        w.priority = .veryHigh
        decodeGate.open()
        for task in [blocker, x, y, z, w] { _ = try await task.image }
        #expect(log.order == ["blocker", "w", "y", "z", "x"])
        #expect(server.requestCount("/one.png") == 1)
    }

    @Test("A shared download runs at the highest priority of its callers")
    func sharedPriority() async throws {
        let gate = Gate()
        route(["/a", "/b"], gated: "/blocker", gate: gate)
        let pipeline = PipelineFixture.pipeline(client: client, downloads: 1)
        let blocker = pipeline.imageTask(with: ImageRequest(url: server.url("/blocker")))
        #expect(await server.waitForRequests("/blocker", count: 1, timeout: 10))
        let b = pipeline.imageTask(with: ImageRequest(url: server.url("/b"), priority: .normal))
        let a = pipeline.imageTask(with: ImageRequest(url: server.url("/a"), priority: .low))
        let urgent = pipeline.imageTask(
            with: ImageRequest(url: server.url("/a"), processing: [PipelineFixture.thumbnail(8)], priority: .high))
        gate.open()
        for task in [blocker, a, b, urgent] { _ = try await task.image }
        #expect(arrivals.order == ["/blocker", "/a", "/b"])
    }

    @Test("The prefetcher warms the memory and disk caches, at low priority")
    func prefetcherWarms() async throws {
        let gate = Gate()
        route(["/p1", "/p2", "/now"], gated: "/blocker", gate: gate)
        let folder = CacheFolder()
        let pipeline = PipelineFixture.pipeline(
            client: client, dataCache: try DataCache(directory: folder.url), downloads: 1)
        let (completions, continuation) = AsyncStream.makeStream(of: Void.self)
        let prefetcher = ImagePrefetcher(pipeline: pipeline) { continuation.yield() }
        let blocker = pipeline.imageTask(with: ImageRequest(url: server.url("/blocker")))
        #expect(await server.waitForRequests("/blocker", count: 1, timeout: 10))
        let thumbnail = ImageRequest(url: server.url("/p2"), processing: [PipelineFixture.thumbnail(8)])
        prefetcher.startPrefetching(with: [server.url("/p1")])
        prefetcher.startPrefetching(with: [thumbnail])
        // Asked twice: prefetched once.
        prefetcher.startPrefetching(with: [server.url("/p1")])
        #expect(prefetcher.pendingCount == 2)
        let now = pipeline.imageTask(with: ImageRequest(url: server.url("/now")))
        gate.open()
        var iterator = completions.makeAsyncIterator()
        await iterator.next()
        _ = try await blocker.image
        _ = try await now.image
        #expect(arrivals.order == ["/blocker", "/now", "/p1", "/p2"])
        #expect(prefetcher.pendingCount == 0)
        #expect(PipelineFixture.isImage(pipeline.cachedImage(for: server.url("/p1"))))
        #expect(pipeline.cachedImage(for: thumbnail) != nil)
        _ = try await pipeline.image(for: thumbnail)
        // Cached: asking again prefetches nothing.
        prefetcher.startPrefetching(with: [server.url("/p1")])
        #expect(prefetcher.pendingCount == 0)
        #expect(server.requestCount("/p1") == 1 && server.requestCount("/p2") == 1)
    }

    @Test("Stopping the prefetcher cancels its transfers")
    func prefetcherStops() async throws {
        for path in ["/s1", "/s2", "/s3"] {
            server.route(path, .delayHeaders(seconds: 30, then: .respond(body: PipelineFixture.png())))
        }
        let pipeline = PipelineFixture.pipeline(client: client)
        let (completions, continuation) = AsyncStream.makeStream(of: Void.self)
        let prefetcher = ImagePrefetcher(pipeline: pipeline) { continuation.yield() }
        let urls = ["/s1", "/s2", "/s3"].map { server.url($0) }
        prefetcher.startPrefetching(with: urls)
        for path in ["/s1", "/s2", "/s3"] { #expect(await server.waitForRequests(path, count: 1, timeout: 10)) }
        prefetcher.stopPrefetching(with: [urls[0]])
        #expect(await server.waitForAbortedResponse("/s1", timeout: 10))
        #expect(server.abortedResponses("/s2") == 0)
        prefetcher.stopAll()
        var iterator = completions.makeAsyncIterator()
        await iterator.next()
        #expect(prefetcher.pendingCount == 0)
        #expect(await server.waitForAbortedResponse("/s2", timeout: 10))
        #expect(await server.waitForAbortedResponse("/s3", timeout: 10))
        #expect(urls.allSatisfy { pipeline.cachedImage(for: $0) == nil })
    }
}
