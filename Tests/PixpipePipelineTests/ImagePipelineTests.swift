import Dispatch
import Foundation
import Pixpipe
import PixpipeLocking
import PixpipeTestSupport
import Testing

@Suite("Image pipeline: sharing, the memory cache and the call forms")
struct ImagePipelineTests {
    let server: TestHTTPServer
    let client: HTTPClient

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    @Test("100 concurrent image(for:) of one URL make one request and one decode")
    func hundredCallers() async throws {
        let gate = Gate()
        let png = PipelineFixture.png()
        server.route(
            "/a.png",
            .handler { _ in
                gate.wait()
                return .respond(headers: ["Content-Type": "image/png"], body: png)
            })
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/a.png")
        try await withThrowingTaskGroup(of: Image.self) { group in
            for _ in 0..<100 {
                group.addTask { try await pipeline.image(for: url) }
            }
            // Every caller is waiting before the server answers, so all of them share the one download.
            #expect(await eventually { pipeline.pendingTaskCount == 100 })
            gate.open()
            var count = 0
            for try await image in group {
                #expect(PipelineFixture.isImage(image))
                count += 1
            }
            #expect(count == 100)
        }
        #expect(server.requestCount("/a.png") == 1)
        #expect(pipeline.statistics.decodes == 1)
        #expect(pipeline.statistics.networkRequests == 1)
    }

    @Test("Three sizes of one URL make one request and three decodes, held as three memory entries")
    func threeSizes() async throws {
        let gate = Gate()
        let png = PipelineFixture.png()
        server.route(
            "/b.png",
            .handler { _ in
                gate.wait()
                return .respond(body: png)
            })
        let pipeline = PipelineFixture.pipeline(client: client)
        let log = ArrivalLog()
        let url = server.url("/b.png")
        let sides = [32, 16, 8]
        var tasks: [(side: Int, task: ImageTask)] = []
        for side in sides {
            for _ in 0..<5 {
                let request = ImageRequest(
                    url: url,
                    processing: [PipelineFixture.thumbnail(side), RecordingStep(label: "\(side)", log: log)])
                tasks.append((side, pipeline.imageTask(with: request)))
            }
        }
        gate.open()
        for (side, task) in tasks {
            let image = try await task.image
            #expect(max(image.width, image.height) == side)
        }
        #expect(server.requestCount("/b.png") == 1)
        #expect(pipeline.statistics.decodes == 3)
        #expect(log.order.sorted() == ["16", "32", "8"])
        #expect(pipeline.configuration.imageCache?.count == 3)
    }

    @Test("A memory hit does no I/O: no request, no disk read, no decode, and a task finished at once")
    func memoryHit() async throws {
        let folder = CacheFolder()
        server.route("/c.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let pipeline = PipelineFixture.pipeline(client: client, dataCache: try DataCache(directory: folder.url))
        let url = server.url("/c.png")
        let request = ImageRequest(url: url, processing: [PipelineFixture.thumbnail(16)])
        #expect(pipeline.cachedImage(for: request) == nil)
        let first = try await pipeline.image(for: request)
        let before = pipeline.statistics

        #expect(pipeline.cachedImage(for: request) == first)
        #expect(try await pipeline.image(for: request) == first)
        let task = pipeline.imageTask(with: request)
        #expect(task.isFinished)
        #expect(try await task.image == first)
        let after = pipeline.statistics
        #expect(server.requestCount("/c.png") == 1)
        #expect(after.networkRequests == before.networkRequests)
        #expect(after.diskHits == before.diskHits && after.decodes == before.decodes)
        #expect(after.memoryHits == before.memoryHits + 2)
        // The unprocessed image is another key: not in memory, but on the disk.
        #expect(pipeline.cachedImage(for: url) == nil)
        #expect(PipelineFixture.isImage(try await pipeline.image(for: url)))
        #expect(pipeline.statistics.diskHits == before.diskHits + 1)
        #expect(server.requestCount("/c.png") == 1)
    }

    @Test("The completion-handler form delivers the image on the given queue")
    func completionHandler() async throws {
        server.route("/d.png", .respond(body: PipelineFixture.png()))
        let pipeline = PipelineFixture.pipeline(client: client)
        let queue = DispatchQueue(label: "pipeline-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let (results, continuation) = AsyncStream.makeStream(of: (Result<Image, ImageLoadError>, Int?).self)
        let task = pipeline.loadImage(with: ImageRequest(url: server.url("/d.png")), queue: queue) { result in
            continuation.yield((result, DispatchQueue.getSpecific(key: key)))
            continuation.finish()
        }
        var iterator = results.makeAsyncIterator()
        let delivered = await iterator.next()
        #expect(PipelineFixture.isImage(try delivered?.0.get()))
        #expect(delivered?.1 == 7)
        #expect(task.isFinished)
        // From the memory cache: still through the queue, never before `loadImage` returns. Called on the
        // serial queue itself, so a completion sent there cannot run until the call below has returned.
        let (again, second) = AsyncStream.makeStream(of: Bool.self)
        let returned = Locked(false)
        queue.sync {
            pipeline.loadImage(with: ImageRequest(url: server.url("/d.png")), queue: queue) { result in
                second.yield((try? result.get()) != nil && returned.withLock { $0 })
                second.finish()
            }
            returned.withLock { $0 = true }
        }
        var secondIterator = again.makeAsyncIterator()
        #expect(await secondIterator.next() == true)
    }

    @Test("Failures are typed with stable short names, are not cached, and are retried by the next call")
    func failures() async throws {
        server.route("/missing.png", .text("no", status: 404))
        server.route("/text.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: Array("hello".utf8)))
        let folder = CacheFolder()
        let pipeline = PipelineFixture.pipeline(client: client, dataCache: try DataCache(directory: folder.url))
        let missing = server.url("/missing.png")
        await #expect(throws: ImageLoadError.fetch(.httpStatus(code: 404, url: missing, bodyPrefix: "no"))) {
            try await pipeline.image(for: missing)
        }
        let text = server.url("/text.png")
        let error = await #expect(throws: ImageLoadError.self) { try await pipeline.image(for: text) }
        #expect(error == .decoding(.unsupportedFormat(recognized: .text), url: text))
        #expect(error?.shortName == "not-an-image")
        #expect(
            ImageLoadError.fetch(.httpStatus(code: 404, url: missing, bodyPrefix: "")).shortName == "http-status")
        #expect(ImageLoadError.cancelled(url: text).shortName == "cancelled")
        // Bytes that are not an image are dropped from the disk, so the next call asks again.
        #expect(folder.fileNames().filter { !$0.hasPrefix(".") }.isEmpty)
        await #expect(throws: ImageLoadError.self) { try await pipeline.image(for: text) }
        #expect(server.requestCount("/text.png") == 2)
        await #expect(throws: ImageLoadError.self) { try await pipeline.image(for: missing) }
        #expect(server.requestCount("/missing.png") == 2)
    }

    @Test("Progress reaches the request's handler as the body arrives")
    func progress() async throws {
        let png = PipelineFixture.png(width: 200, height: 200)
        server.route("/slow.png", .trickle(body: png, chunkSize: png.count / 4 + 1, interval: 0.01))
        let pipeline = PipelineFixture.pipeline(client: client)
        let seen = Locked<[TransferProgress]>([])
        let request = ImageRequest(url: server.url("/slow.png")) { progress in seen.withLock { $0.append(progress) } }
        let image = try await pipeline.image(for: request)
        #expect(image.width == 200)
        let updates = seen.withLock { $0 }
        #expect(updates.last?.bytesReceived == png.count)
        #expect(updates.last?.bytesExpected == png.count)
        // Each update at least the one before (how many arrive depends on how the chunks are read).
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.bytesReceived <= $1.bytesReceived })
    }
}
