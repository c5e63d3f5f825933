import Foundation
import PixpipeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Foundation's own HTTP client talks to the server as to any other.
@Suite struct URLSessionInteropTests {
    @Test func urlSessionFetchesARouteAndReusesTheConnection() async throws {
        let server = try TestHTTPServer()
        server.route("/hello", .text("hi"))
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for _ in 0..<2 {
            let (data, response) = try await session.data(from: server.url("/hello?x=1"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hi")
        }
        #expect(server.requestCount("/hello") == 2)
        #expect(server.connectionCount == 1)
    }

    @Test func urlIsBaseURLPlusPath() throws {
        let server = try TestHTTPServer()
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(server.url("/a/b?c=d").absoluteString == "http://127.0.0.1:\(server.port)/a/b?c=d")
        #expect(server.port > 0)
    }
}
