import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// An easy handle keeps its options from one request to the next when the requests look alike, and is
/// reset when they do not: nothing of one request may leak into the next. Requests here run one after
/// another on one engine, so every one of them reuses the same handle (the tests check there is one).
@Suite("Curl handle reuse")
struct CurlHandleReuseTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func request(
        _ path: String, headers: [CurlHeaderField] = [], configure: (inout CurlTransferRequest) -> Void = { _ in }
    ) -> CurlTransferRequest {
        var request = CurlTransferRequest(url: server.url(path))
        request.headers = headers
        configure(&request)
        return request
    }

    @Test func headersMethodsBodiesAndRangesDoNotCarryOver() async throws {
        for path in ["/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h"] { server.route(path, .text("body of \(path)")) }
        let first = [CurlHeaderField(name: "X-First", value: "1")]
        let second = [CurlHeaderField(name: "X-Second", value: "2")]
        try await withEngine { engine in
            var bodies: [String] = []
            func run(_ request: CurlTransferRequest) async throws {
                let (_, body) = try await fetch(engine, request)
                bodies.append(String(decoding: body, as: UTF8.self))
            }
            try await run(request("/a", headers: first))
            try await run(request("/b", headers: second))
            try await run(request("/c", headers: second))
            try await run(
                request("/d", headers: second) {
                    $0.method = "PUT"
                    $0.body = Data("payload".utf8)
                })
            try await run(request("/e", headers: second))
            try await run(request("/f", headers: second) { $0.rangeStart = 3 })
            try await run(request("/g", headers: second) { $0.method = "HEAD" })
            try await run(request("/h", headers: second))
            #expect(
                bodies == [
                    "body of /a", "body of /b", "body of /c", "body of /d", "body of /e", "body of /f", "",
                    "body of /h",
                ])
            #expect(engine.counters.snapshot.liveEasyHandles == 1)
        }
        let seen = { (path: String) in self.server.requests(path).first }
        #expect(seen("/a")?.header("X-First") == "1")
        for path in ["/b", "/c", "/d", "/e", "/f", "/g", "/h"] {
            #expect(seen(path)?.header("X-First") == nil, "\(path) carried the first request's header")
            #expect(seen(path)?.header("X-Second") == "2")
        }
        #expect(seen("/d")?.method == "PUT")
        #expect(seen("/d")?.body == Array("payload".utf8))
        #expect(seen("/e")?.method == "GET")
        #expect(seen("/e")?.body == [])
        #expect(seen("/e")?.header("Content-Length") == nil)
        #expect(seen("/f")?.header("Range") == "bytes=3-")
        #expect(seen("/g")?.method == "HEAD")
        #expect(seen("/h")?.method == "GET")
        #expect(seen("/h")?.header("Range") == nil)
    }

    @Test func progressOfAReusedHandleReportsItsOwnTransfer() async throws {
        server.route("/small", .text(String(repeating: "s", count: 100)))
        server.route("/large", .text(String(repeating: "l", count: 5000)))
        let small = ProgressLog()
        let large = ProgressLog()
        try await withEngine { engine in
            _ = try await fetch(engine, request("/small") { $0.progress = { small.append($0) } })
            _ = try await fetch(engine, request("/large") { $0.progress = { large.append($0) } })
            #expect(engine.counters.snapshot.liveEasyHandles == 1)
        }
        #expect(small.values.last == CurlTransferProgress(bytesReceived: 100, bytesExpected: 100))
        #expect(large.values.last == CurlTransferProgress(bytesReceived: 5000, bytesExpected: 5000))
        #expect(small.values.allSatisfy { $0.bytesReceived <= 100 })
    }

    @Test func aRefusedRequestLeavesTheHandleUsable() async throws {
        server.route("/ok", .text("fine"))
        try await withEngine { engine in
            let bad = request("/ok", headers: [CurlHeaderField(name: "X-Bad", value: "a\r\nInjected: 1")])
            await #expect(throws: CurlTransferError.self) { try await fetch(engine, bad) }
            let (_, body) = try await fetch(engine, request("/ok"))
            #expect(body == Data("fine".utf8))
        }
        #expect(server.requests("/ok").count == 1)
        #expect(server.requests("/ok").first?.header("Injected") == nil)
    }
}
