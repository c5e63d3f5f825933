import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("Image pipeline: cancellation")
struct ImagePipelineCancellationTests {
    let server: TestHTTPServer
    let client: HTTPClient

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    /// A route that answers with the test image once `gate` opens.
    func gatedRoute(_ path: String, gate: Gate) {
        let png = PipelineFixture.png()
        server.route(
            path,
            .handler { _ in
                gate.wait()
                return .respond(body: png)
            })
    }

    @Test("Cancelling one of two callers cancels only its share: the other gets the image from the one transfer")
    func oneOfTwo() async throws {
        let gate = Gate()
        gatedRoute("/shared.png", gate: gate)
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/shared.png")
        let first = pipeline.imageTask(with: ImageRequest(url: url))
        let second = pipeline.imageTask(with: ImageRequest(url: url))
        #expect(await server.waitForRequests("/shared.png", count: 1, timeout: 10))
        first.cancel()
        #expect(await first.result == .failure(.cancelled(url: url)))
        #expect(!second.isFinished)
        gate.open()
        #expect(PipelineFixture.isImage(try await second.image))
        #expect(server.requestCount("/shared.png") == 1)
        #expect(server.abortedResponses("/shared.png") == 0)
        #expect(pipeline.statistics.cancelledTransfers == 0)
    }

    @Test("Cancelling one size keeps the download for another size of the same URL")
    func otherProcessingKeepsTheDownload() async throws {
        let gate = Gate()
        gatedRoute("/sizes.png", gate: gate)
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/sizes.png")
        let large = pipeline.imageTask(with: ImageRequest(url: url, processing: [PipelineFixture.thumbnail(32)]))
        let small = pipeline.imageTask(with: ImageRequest(url: url, processing: [PipelineFixture.thumbnail(8)]))
        #expect(await server.waitForRequests("/sizes.png", count: 1, timeout: 10))
        large.cancel()
        gate.open()
        let image = try await small.image
        #expect(max(image.width, image.height) == 8)
        #expect(await large.result == .failure(.cancelled(url: url)))
        #expect(server.requestCount("/sizes.png") == 1)
        #expect(pipeline.statistics.decodes == 1)
    }

    @Test("When the last caller cancels, the transfer is cancelled and the server sees the abort")
    func lastCaller() async throws {
        server.route("/slow.png", .delayHeaders(seconds: 30, then: .respond(body: PipelineFixture.png())))
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/slow.png")
        let tasks = (0..<3).map { side in
            pipeline.imageTask(with: ImageRequest(url: url, processing: [PipelineFixture.thumbnail(8 << side)]))
        }
        #expect(await server.waitForRequests("/slow.png", count: 1, timeout: 10))
        for task in tasks { task.cancel() }
        for task in tasks { #expect(await task.result == .failure(.cancelled(url: url))) }
        #expect(await server.waitForAbortedResponse("/slow.png", timeout: 10))
        #expect(pipeline.statistics.cancelledTransfers == 1)
        #expect(pipeline.pendingTaskCount == 0)
    }

    @Test("Cancelling the Swift task awaiting image(for:) cancels its load")
    func swiftTaskCancellation() async throws {
        server.route("/wait.png", .delayHeaders(seconds: 30, then: .respond(body: PipelineFixture.png())))
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/wait.png")
        let task = Task { () async throws(ImageLoadError) -> Image in try await pipeline.image(for: url) }
        #expect(await server.waitForRequests("/wait.png", count: 1, timeout: 10))
        task.cancel()
        let result = await task.result
        #expect(throws: ImageLoadError.cancelled(url: url)) { try result.get() }
        #expect(await server.waitForAbortedResponse("/wait.png", timeout: 10))
    }

    @Test("Cancelling a completion-handler load delivers cancelled and stops the transfer")
    func completionCancel() async throws {
        server.route("/later.png", .delayHeaders(seconds: 30, then: .respond(body: PipelineFixture.png())))
        let pipeline = PipelineFixture.pipeline(client: client)
        let url = server.url("/later.png")
        let (results, continuation) = AsyncStream.makeStream(of: Result<Image, ImageLoadError>.self)
        let task = pipeline.loadImage(with: ImageRequest(url: url)) { result in
            continuation.yield(result)
            continuation.finish()
        }
        #expect(await server.waitForRequests("/later.png", count: 1, timeout: 10))
        task.cancel()
        task.cancel()
        var iterator = results.makeAsyncIterator()
        #expect(await iterator.next() == .failure(.cancelled(url: url)))
        #expect(await iterator.next() == nil)
        #expect(await server.waitForAbortedResponse("/later.png", timeout: 10))
    }

    @Test("A download cancelled while queued is never requested")
    func cancelledWhileQueued() async throws {
        let gate = Gate()
        gatedRoute("/first.png", gate: gate)
        server.route("/queued.png", .respond(body: PipelineFixture.png()))
        let pipeline = PipelineFixture.pipeline(client: client, downloads: 1)
        let first = pipeline.imageTask(with: ImageRequest(url: server.url("/first.png")))
        let queued = pipeline.imageTask(with: ImageRequest(url: server.url("/queued.png")))
        #expect(await server.waitForRequests("/first.png", count: 1, timeout: 10))
        queued.cancel()
        gate.open()
        #expect(PipelineFixture.isImage(try await first.image))
        // A later request for another URL goes through the freed slot; the cancelled one never went out.
        server.route("/after.png", .respond(body: PipelineFixture.png()))
        _ = try await pipeline.image(for: server.url("/after.png"))
        #expect(server.requestCount("/queued.png") == 0)
        #expect(await queued.result == .failure(.cancelled(url: server.url("/queued.png"))))
    }
}
