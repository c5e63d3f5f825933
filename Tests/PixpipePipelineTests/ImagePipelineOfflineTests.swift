import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// A stale disk-cache entry when its origin cannot be reached (RFC 9111 4.2.4): served when its metadata
/// allows, never refreshed by it; refused for `must-revalidate` and `no-cache`, after a `5xx`, or when the
/// configuration says not to.
@Suite("Image pipeline: stale entries when the origin is down")
struct ImagePipelineOfflineTests {
    let server: TestHTTPServer
    let client: HTTPClient
    let folder = CacheFolder()

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    /// A pipeline with a memory cache of its own over the shared folder: what a new process would see.
    func freshPipeline(servesStaleOnError: Bool = true, client: HTTPClient? = nil) throws -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                client: client ?? self.client, dataCache: try DataCache(directory: folder.url),
                servesStaleOnError: servesStaleOnError))
    }

    /// Serves `/path` with `headers` once into the folder, then stops the server; returns the URL.
    func cacheThenStop(_ path: String, headers: [String: String]) async throws -> URL {
        server.route(path, .respond(headers: headers, body: PipelineFixture.png()))
        let url = server.url(path)
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        #expect(server.requestCount(path) == 1)
        server.stop()
        return url
    }

    @Test("A stale entry with a validator serves while the server is stopped, and stays stale")
    func staleServedWhenDown() async throws {
        let url = try await cacheThenStop("/stale.png", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let before = try DataCache(directory: folder.url).entry(for: url.absoluteString)
        let second = try freshPipeline()
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        var expected = ImagePipeline.Statistics()
        expected.networkRequests = 1
        expected.staleServed = 1
        expected.decodes = 1
        #expect(second.statistics == expected)
        // Not refreshed: the entry is as stored, and the next pipeline asks the origin again.
        let after = try DataCache(directory: folder.url).entry(for: url.absoluteString)
        #expect(after?.metadata == before?.metadata && after?.data == before?.data)
        let third = try freshPipeline()
        #expect(PipelineFixture.isImage(try await third.image(for: url)))
        #expect(third.statistics.networkRequests == 1 && third.statistics.staleServed == 1)
    }

    /// Callers share a download only while it runs: one that arrives after a failed revalidation has ended
    /// starts its own, which asks the origin again (the pipeline keeps no memory of an origin being down, so
    /// what a caller gets never depends on how fast a refusal came back). So the origin here holds the
    /// revalidation until all three callers have joined it, then drops the connection.
    @Test("Callers at three sizes share one stale download")
    func staleShared() async throws {
        server.route("/shared.png", .respond(headers: ["Cache-Control": "max-age=0"], body: PipelineFixture.png()))
        let url = server.url("/shared.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        let gate = Gate()
        server.route(
            "/shared.png",
            .handler { _ in
                gate.wait()
                return .reset
            })
        let pipeline = try freshPipeline()
        // `imageTask(with:)` registers each caller before it returns: all three have joined the one download
        // before the origin can answer it.
        let tasks = [[PipelineFixture.thumbnail(8)], [PipelineFixture.thumbnail(16)], []].map {
            pipeline.imageTask(with: ImageRequest(url: url, processing: $0))
        }
        #expect(await server.waitForRequests("/shared.png", count: 2, timeout: 60))
        gate.open()
        var sides: [Int] = []
        for task in tasks { sides.append(max(try await task.image.width, try await task.image.height)) }
        #expect(sides == [8, 16, 64])
        // No validator: the entry would be fetched again, but stands in all the same.
        #expect(pipeline.statistics.networkRequests == 1 && pipeline.statistics.staleServed == 1)
    }

    @Test(
        "must-revalidate and no-cache entries fail when the origin is down",
        arguments: ["max-age=0, must-revalidate", "no-cache"])
    func refusedByTheEntry(cacheControl: String) async throws {
        let url = try await cacheThenStop("/strict.png", headers: ["Cache-Control": cacheControl, "ETag": "\"v1\""])
        let second = try freshPipeline()
        let error = await #expect(throws: ImageLoadError.self) { try await second.image(for: url) }
        #expect(error?.shortName == "transport")
        #expect(second.statistics.staleServed == 0 && second.statistics.networkRequests == 1)
        // Still stored: a failure to revalidate removes nothing.
        #expect(try DataCache(directory: folder.url).entry(for: url.absoluteString) != nil)
    }

    @Test("servesStaleOnError false: the load fails as before")
    func refusedByTheConfiguration() async throws {
        let url = try await cacheThenStop("/off.png", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let second = try freshPipeline(servesStaleOnError: false)
        await #expect(throws: ImageLoadError.self) { try await second.image(for: url) }
        #expect(second.statistics.staleServed == 0)
    }

    @Test("A 503 is an answer, not a disconnection: no stale entry serves (no stale-if-error)")
    func serverErrorIsNotDisconnection() async throws {
        server.route(
            "/busy.png",
            .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: PipelineFixture.png()))
        let url = server.url("/busy.png")
        _ = try await freshPipeline().image(for: url)
        server.route("/busy.png", .text("busy", status: 503))
        let second = try freshPipeline()
        let error = await #expect(throws: ImageLoadError.self) { try await second.image(for: url) }
        #expect(error == .fetch(.httpStatus(code: 503, url: url, bodyPrefix: "busy")))
        #expect(second.statistics.staleServed == 0)
    }

    @Test("A timeout counts as the origin being down")
    func timeoutServesStale() async throws {
        server.route(
            "/slow.png",
            .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: PipelineFixture.png()))
        let url = server.url("/slow.png")
        _ = try await freshPipeline().image(for: url)
        server.route("/slow.png", .delayHeaders(seconds: 20, then: .text("late")))
        let impatient = HTTPClient(configuration: .init(timeout: .milliseconds(300), retryPolicy: RetryPolicy.none))
        let second = try freshPipeline(client: impatient)
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        #expect(second.statistics.staleServed == 1)
        #expect(server.requestCount("/slow.png") == 2)
        server.stop()
    }

    @Test("HTTPError.isOriginUnreachable: transport failures and timeouts, not answers or cancellations")
    func unreachableErrors() throws {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        #expect(HTTPError.transport(code: 7, description: "refused", url: url).isOriginUnreachable)
        #expect(HTTPError.timedOut(after: .seconds(1), url: url).isOriginUnreachable)
        #expect(!HTTPError.httpStatus(code: 503, url: url, bodyPrefix: "").isOriginUnreachable)
        #expect(!HTTPError.cancelled(url: url).isOriginUnreachable)
        // CURLE_PEER_FAILED_VERIFICATION (60): the client's trust, not the network.
        #expect(!HTTPError.transport(code: 60, description: "certificate", url: url).isOriginUnreachable)
    }
}
