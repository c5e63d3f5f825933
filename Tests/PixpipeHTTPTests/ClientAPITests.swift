import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    @Suite("Client API against a real socket")
    struct ClientAPITests {
        let server: TestHTTPServer

        init() throws {
            server = try TestHTTPServer()
        }

        func client(adapters: [any RequestAdapter] = [], userAgent: String? = HTTPClient.Configuration.defaultUserAgent)
            -> HTTPClient
        {
            HTTPClient(
                configuration: .init(
                    baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none, userAgent: userAgent,
                    adapters: adapters))
        }

        @Test func defaultUserAgentIdentifiesTheTool() async throws {
            server.route("/ua", .text("ok"))
            _ = try await client().send(Request<String>(path: "/ua"))
            #expect(server.requests("/ua").first?.headers["user-agent"] == "Pixpipe/0.1.0")
            var request = Request<String>(path: "/ua")
            request.headers["User-Agent"] = "custom/2"
            _ = try await client().send(request)
            #expect(server.requests("/ua").last?.headers["user-agent"] == "custom/2")
        }

        @Test func adaptersAddHeadersAuthAndQuery() async throws {
            server.route("/api", .text("ok"))
            let adapted = client(adapters: [
                .headers(["X-Api-Key": "k1"]), .bearerToken("t0k"),
                .query([URLQueryItem(name: "lang", value: "en gb")]),
            ])
            _ = try await adapted.send(Request<String>(path: "/api", query: [URLQueryItem(name: "q", value: "a+b")]))
            let recorded = try #require(server.requests("/api").first)
            #expect(recorded.headers["x-api-key"] == "k1")
            #expect(recorded.headers["authorization"] == "Bearer t0k")
            #expect(recorded.query == "q=a%2Bb&lang=en%20gb")
        }

        @Test func bodiesCarryTheirContentType() async throws {
            struct Item: Encodable { var name: String }
            server.route("/items", .text("ok"))
            _ = try await client().send(Request<String>(path: "/items", method: .put, body: try .json(Item(name: "x"))))
            _ = try await client().send(Request<String>(path: "/items", method: .post, body: .form(["a": "1 2"])))
            let recorded = server.requests("/items")
            #expect(recorded.map(\.method) == ["PUT", "POST"])
            #expect(recorded.first?.headers["content-type"] == "application/json")
            #expect(recorded.first?.body == Array(#"{"name":"x"}"#.utf8))
            #expect(recorded.last?.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(recorded.last?.body == Array("a=1+2".utf8))
        }

        @Test func completionHandlerDeliversTheResult() async throws {
            server.route("/hello", .text("hi"))
            let client = client()
            let result = await withCheckedContinuation { continuation in
                Request<String>(path: "/hello").response(using: client) { continuation.resume(returning: $0) }
            }
            #expect(try result.get() == "hi")
        }

        @Test func completionHandlerIsCancellable() async throws {
            server.route("/slow", .delayHeaders(seconds: 5, then: .text("late")))
            let client = client()
            let result = await withCheckedContinuation { continuation in
                let cancellable: any Cancellable = client.send(Request<String>(path: "/slow")) {
                    continuation.resume(returning: $0)
                }
                Task {
                    _ = await server.waitForRequests("/slow", count: 1, timeout: 5)
                    cancellable.cancel()
                }
            }
            #expect(throws: HTTPError.cancelled(url: server.url("/slow"))) { try result.get() }
        }

        @Test func sharedClientServesAbsoluteURLs() async throws {
            server.route("/shared", .text("shared"))
            let result = await withCheckedContinuation { continuation in
                Request<String>(url: server.url("/shared")).response { continuation.resume(returning: $0) }
            }
            #expect(try result.get() == "shared")
        }

        @Test(arguments: ["http://", "not a url at all", "/relative-without-base"])
        func invalidURLsAreRefused(string: String) async {
            let noBase = HTTPClient(configuration: .init(retryPolicy: .none))
            let error = await #expect(throws: HTTPError.self) { try await noBase.send(Request<String>(path: string)) }
            #expect(error.map { if case .invalidURL = $0 { true } else { false } } == true)
        }

        @Test(arguments: ["ftp://example.com/file", "file:///etc/passwd", "data:text/plain,hi"])
        func onlyHTTPAndHTTPSAreSupported(string: String) async throws {
            let url = try #require(URL(string: string))
            let error = await #expect(throws: HTTPError.self) { try await client().send(Request<String>(url: url)) }
            #expect(error.map { if case .unsupportedScheme = $0 { true } else { false } } == true)
        }

        @Test func connectionRefusedIsATransportError() async throws {
            let closed = try TestHTTPServer()
            let url = closed.url("/nothing")
            closed.stop()
            let error = await #expect(throws: HTTPError.self) { try await client().send(Request<String>(url: url)) }
            #expect(error.map { if case .transport(_, _, url) = $0 { true } else { false } } == true)
        }
    }
}
