import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    /// A base URL is a folder whether or not it ends in `/`; a leading `/` starts from the host.
    @Suite("Base URL joined as a folder")
    struct BaseURLJoinTests {
        let server: TestHTTPServer

        init() throws {
            server = try TestHTTPServer()
            for path in ["/api/items.json", "/api/v2/items.json", "/items.json", "/other.json"] {
                server.route(path, .text(path))
            }
        }

        private func client(base: String) throws -> HTTPClient {
            let url = try #require(URL(string: server.baseURL.absoluteString + base))
            return HTTPClient(configuration: .init(baseURL: url, timeout: .seconds(5), retryPolicy: .none))
        }

        @Test(
            "A relative path goes below the base, with or without its trailing slash",
            arguments: ["/api", "/api/", "/api?key=1"])
        func relativePathBelowTheBase(base: String) async throws {
            let client = try client(base: base)
            #expect(try await client.send(Request<String>(path: "items.json")) == "/api/items.json")
            #expect(try await client.send(Request<String>(path: "v2/items.json")) == "/api/v2/items.json")
            #expect(try await client.send(Request<String>(path: "./items.json")) == "/api/items.json")
            #expect(try await client.send(Request<String>(path: "../other.json")) == "/other.json")
        }

        @Test("A path starting with / starts from the host, and the response says where it came from")
        func absolutePathFromTheHost() async throws {
            let client = try client(base: "/api")
            let response = try await client.response(for: Request<String>(path: "/items.json"))
            #expect(response.value == "/items.json")
            #expect(response.url == server.url("/items.json"))
        }

        @Test("Query items join the folder path, and the base's own query is not carried to the path")
        func queryItems() async throws {
            let client = try client(base: "/api?key=1")
            let request = Request<String>(path: "items.json", query: [URLQueryItem(name: "page", value: "2")])
            let response = try await client.response(for: request)
            #expect(response.url == server.url("/api/items.json?page=2"))
            #expect(server.requests("/api/items.json").last?.target == "/api/items.json?page=2")
        }
    }
}
