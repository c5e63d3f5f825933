import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

@Suite("Curl multi engine")
struct CurlMultiEngineTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    @Test func fetchesStatusHeadersAndBody() async throws {
        server.route("/hello", .text("hello curl", status: 201))
        try await withEngine { engine in
            let (outcome, body) = try await fetch(engine, CurlTransferRequest(url: server.url("/hello")))
            #expect(outcome.head.statusCode == 201)
            #expect(outcome.head.value(for: "content-type") == "text/plain; charset=utf-8")
            #expect(String(decoding: body, as: UTF8.self) == "hello curl")
            #expect(outcome.bodyByteCount == 10)
        }
    }

    @Test func sendsMethodHeadersAndBody() async throws {
        server.route("/echo", .text("ok"))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/echo"))
            request.method = "PUT"
            request.headers = [CurlHeaderField(name: "X-Token", value: "abc")]
            request.body = Data("payload".utf8)
            _ = try await fetch(engine, request)
        }
        let recorded = try #require(server.requests("/echo").first)
        #expect(recorded.method == "PUT")
        #expect(recorded.header("X-Token") == "abc")
        #expect(recorded.body == Array("payload".utf8))
        #expect(recorded.header("Expect") == nil)
    }

    @Test func refusesHeaderValuesWithLineBreaks() async throws {
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/x"))
            request.headers = [CurlHeaderField(name: "X-Evil", value: "a\r\nHost: other")]
            await #expect(throws: CurlTransferError.self) { try await fetch(engine, request) }
            #expect(server.requestCount("/x") == 0)
        }
    }

    @Test func decodesGzipBodies() async throws {
        let gzip = try #require(Data(base64Encoded: "H4sIAAAAAAACAyvIrCjILEhVKBilRyQNAGovdqkAAgAA"))
        server.route("/gz", .respond(headers: ["Content-Encoding": "gzip"], body: Array(gzip)))
        try await withEngine { engine in
            let (_, body) = try await fetch(engine, CurlTransferRequest(url: server.url("/gz")))
            #expect(String(decoding: body, as: UTF8.self) == String(repeating: "pixpipe ", count: 64))
        }
        #expect(server.requests("/gz").first?.header("Accept-Encoding") == "gzip, deflate")
    }

    @Test func refusesADeclaredBodyOverTheCapBeforeReadingIt() async throws {
        server.route("/big", .respond(body: [UInt8](repeating: 7, count: 5000)))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/big"))
            request.maxBodyBytes = 1000
            await #expect(
                throws: CurlTransferError.bodyTooLarge(limit: 1000, declaredLength: 5000, url: server.url("/big"))
            ) {
                try await fetch(engine, request)
            }
        }
    }

    @Test func stopsAnUndeclaredBodyOnceItPassesTheCap() async throws {
        server.route("/stream", .endless(chunkSize: 4096))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/stream"))
            request.maxBodyBytes = 100_000
            let expected = CurlTransferError.bodyTooLarge(
                limit: 100_000, declaredLength: nil, url: server.url("/stream"))
            await #expect(throws: expected) {
                try await fetch(engine, request)
            }
        }
    }

    @Test func followsRedirectsAndReportsTheFinalURL() async throws {
        server.route("/from", .redirect(to: "/middle"))
        server.route("/middle", .redirect(to: server.url("/to").absoluteString, status: 301))
        server.route("/to", .text("arrived"))
        try await withEngine { engine in
            let (outcome, body) = try await fetch(engine, CurlTransferRequest(url: server.url("/from")))
            #expect(outcome.redirectCount == 2)
            #expect(outcome.effectiveURL == server.url("/to"))
            #expect(outcome.head.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == "arrived")
        }
    }

    @Test func failsAfterTooManyRedirects() async throws {
        server.route("/loop", .redirect(to: "/loop"))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/loop"))
            request.maxRedirects = 3
            await #expect(throws: CurlTransferError.tooManyRedirects(limit: 3, url: server.url("/loop"))) {
                try await fetch(engine, request)
            }
        }
        #expect(server.requestCount("/loop") == 4)
    }

    @Test func returnsRedirectsAsTheyAreWhenNotFollowing() async throws {
        server.route("/moved", .redirect(to: "/elsewhere"))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/moved"))
            request.maxRedirects = nil
            let (outcome, _) = try await fetch(engine, request)
            #expect(outcome.head.statusCode == 302)
            #expect(outcome.head.value(for: "Location") == "/elsewhere")
        }
    }

    @Test func asksForARangeWhenResuming() async throws {
        server.route(
            "/partial", .respond(status: 206, headers: ["Content-Range": "bytes 5-9/10"], body: Array("56789".utf8)))
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/partial"))
            request.rangeStart = 5
            let (outcome, body) = try await fetch(engine, request)
            #expect(outcome.head.statusCode == 206)
            #expect(body == Data("56789".utf8))
        }
        #expect(server.requests("/partial").first?.header("Range") == "bytes=5-")
    }

    @Test func reusesOneConnectionForSequentialRequests() async throws {
        server.route("/again", .text("same"))
        try await withEngine { engine in
            for _ in 0..<5 { _ = try await fetch(engine, CurlTransferRequest(url: server.url("/again"))) }
            #expect(engine.counters.snapshot.liveEasyHandles == 1)
        }
        #expect(server.connectionCount == 1)
    }

    @Test func reportsProgressUpToTheDeclaredLength() async throws {
        let body = [UInt8](repeating: 1, count: 64 * 1024)
        server.route("/progress", .trickle(body: body, chunkSize: 16 * 1024, interval: 0.01))
        let reports = ProgressLog()
        try await withEngine { engine in
            var request = CurlTransferRequest(url: server.url("/progress"))
            request.progress = { reports.append($0) }
            _ = try await fetch(engine, request)
        }
        let all = reports.values
        #expect(all.last == CurlTransferProgress(bytesReceived: 65536, bytesExpected: 65536))
        #expect(all.map(\.bytesReceived) == all.map(\.bytesReceived).sorted())
        #expect(all.count >= 2)
    }

    @Test func reportsServerResetsAsTransportErrors() async throws {
        server.route("/reset", .reset)
        try await withEngine { engine in
            let error = await #expect(throws: CurlTransferError.self) {
                try await fetch(engine, CurlTransferRequest(url: server.url("/reset")))
            }
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
        }
    }
}
