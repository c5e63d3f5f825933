import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// The transport contract, run unchanged against every built-in transport: same behaviours, same errors.
@Suite("HTTP transports")
struct HTTPTransportTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func request(
        _ path: String, method: HTTPMethod = .get, body: Data? = nil, maxBodyBytes: Int = 1 << 20,
        maxRedirects: Int = 10, timeout: Duration = .seconds(5)
    ) -> TransportRequest {
        TransportRequest(
            url: server.url(path), method: method, headers: ["X-Test": "1"], body: body, maxBodyBytes: maxBodyBytes,
            redirectPolicy: RedirectPolicy(maxRedirects: maxRedirects), timeout: timeout)
    }

    private func perform(
        _ kind: HTTPTransportKind, _ request: TransportRequest
    ) async throws(HTTPError) -> TransportResponse {
        try await kind.makeTransport(maxConnectionsPerHost: 4).perform(request) { _ in }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func returnsStatusHeadersBodyAndURL(kind: HTTPTransportKind) async throws {
        server.route("/hello", .respond(status: 201, headers: ["X-Reply": "yes"], body: Array("hi there".utf8)))
        let response = try await perform(kind, request("/hello"))
        #expect(response.metadata.statusCode == 201)
        #expect(response.metadata.headers["x-reply"] == "yes")
        #expect(response.metadata.url == server.url("/hello"))
        #expect(response.body == Data("hi there".utf8))
        #expect(server.requests("/hello").first?.header("X-Test") == "1")
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func errorStatusesAreResponsesNotErrors(kind: HTTPTransportKind) async throws {
        server.route("/missing", .text("nope", status: 404))
        let response = try await perform(kind, request("/missing"))
        #expect(response.metadata.statusCode == 404)
        #expect(response.body == Data("nope".utf8))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func sendsTheMethodAndBody(kind: HTTPTransportKind) async throws {
        server.route("/upload", .text("stored"))
        _ = try await perform(kind, request("/upload", method: .post, body: Data("abc=1".utf8)))
        let recorded = try #require(server.requests("/upload").first)
        #expect(recorded.method == "POST")
        #expect(recorded.body == Array("abc=1".utf8))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func headRequestsHaveNoBody(kind: HTTPTransportKind) async throws {
        server.route("/head", .text("body that is not sent"))
        let response = try await perform(kind, request("/head", method: .head))
        #expect(response.metadata.statusCode == 200)
        #expect(response.body.isEmpty)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func refusesADeclaredBodyOverTheCap(kind: HTTPTransportKind) async throws {
        server.route("/big", .respond(body: [UInt8](repeating: 1, count: 10_000)))
        await #expect(throws: HTTPError.bodyTooLarge(limit: 1000, url: server.url("/big"))) {
            try await perform(kind, request("/big", maxBodyBytes: 1000))
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func stopsAnUndeclaredBodyOverTheCap(kind: HTTPTransportKind) async throws {
        server.route("/chunks", .chunked(chunks: Array(repeating: [UInt8](repeating: 2, count: 4096), count: 8)))
        await #expect(throws: HTTPError.bodyTooLarge(limit: 10_000, url: server.url("/chunks"))) {
            try await perform(kind, request("/chunks", maxBodyBytes: 10_000))
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func followsRedirects(kind: HTTPTransportKind) async throws {
        server.route("/old", .redirect(to: "/new", status: 301))
        server.route("/new", .text("moved here"))
        let response = try await perform(kind, request("/old"))
        #expect(response.metadata.url == server.url("/new"))
        #expect(response.body == Data("moved here".utf8))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func failsPastTheRedirectLimitNamingTheLastURL(kind: HTTPTransportKind) async throws {
        server.route("/r1", .redirect(to: "/r2"))
        server.route("/r2", .redirect(to: "/r3"))
        server.route("/r3", .text("too far"))
        await #expect(throws: HTTPError.tooManyRedirects(limit: 1, url: server.url("/r2"))) {
            try await perform(kind, request("/r1", maxRedirects: 1))
        }
        #expect(server.requestCount("/r3") == 0)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func decodesGzipBodies(kind: HTTPTransportKind) async throws {
        let gzip = try #require(Data(base64Encoded: "H4sIAAAAAAACAyvIrCjILEhVKBilRyQNAGovdqkAAgAA"))
        server.route("/gz", .respond(headers: ["Content-Encoding": "gzip"], body: Array(gzip)))
        let response = try await perform(kind, request("/gz"))
        #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "pixpipe ", count: 64))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func reportsProgressUpToTheDeclaredLength(kind: HTTPTransportKind) async throws {
        server.route("/slowly", .trickle(body: [UInt8](repeating: 3, count: 30_000), chunkSize: 10_000, interval: 0.01))
        let last = Locked<TransferProgress?>(nil)
        let transport = kind.makeTransport(maxConnectionsPerHost: 1)
        _ = try await transport.perform(request("/slowly")) { progress in last.withLock { $0 = progress } }
        #expect(last.withLock { $0 } == TransferProgress(bytesReceived: 30_000, bytesExpected: 30_000))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func resetConnectionsAreTransportErrors(kind: HTTPTransportKind) async throws {
        server.route("/reset", .reset)
        let error = await #expect(throws: HTTPError.self) { try await perform(kind, request("/reset")) }
        guard case .transport(_, _, let url)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(url == server.url("/reset"))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func cancellationStopsTheTransferPromptly(kind: HTTPTransportKind) async throws {
        server.route("/forever", .delayHeaders(seconds: 30, then: .text("late")))
        let transport = kind.makeTransport(maxConnectionsPerHost: 2)
        let request = request("/forever", timeout: .seconds(60))
        let task = Task { () async throws(HTTPError) -> TransportResponse in
            try await transport.perform(request) { _ in }
        }
        #expect(await server.waitForRequests("/forever", count: 1, timeout: 5))
        let clock = ContinuousClock()
        let started = clock.now
        task.cancel()
        await #expect(throws: HTTPError.cancelled(url: server.url("/forever"))) { try await task.value }
        #expect(clock.now - started < .seconds(1))
        #expect(await server.waitForAbortedResponse("/forever", timeout: 5))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func subSecondClientTimeoutsAreExact(kind: HTTPTransportKind) async throws {
        server.route("/stall", .delayHeaders(seconds: 5, then: .text("late")))
        let client = HTTPClient(
            configuration: .init(baseURL: server.baseURL, timeout: .milliseconds(250), retryPolicy: .none),
            transport: kind)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: HTTPError.timedOut(after: .milliseconds(250), url: server.url("/stall"))) {
            try await client.send(Request<Data>(path: "/stall"))
        }
        let elapsed = clock.now - started
        // The wall clock only proves sub-second behaviour: it also counts task scheduling, which a loaded
        // machine delays. Run alone, the overshoot is a few milliseconds.
        // libcurl counts whole milliseconds and may end a transfer up to 1 ms before the deadline.
        #expect(elapsed >= .milliseconds(249) && elapsed < .milliseconds(750))
    }
}
