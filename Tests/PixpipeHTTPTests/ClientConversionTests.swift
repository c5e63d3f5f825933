import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("Client conversions against a real socket")
struct ClientConversionTests {
    let server: TestHTTPServer
    let client: HTTPClient

    init() throws {
        server = try TestHTTPServer()
        client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
    }

    @Test func stringUsesUTF8WithoutCharset() async throws {
        server.route("/text", .respond(headers: ["Content-Type": "text/plain"], body: Array("héllo".utf8)))
        let text = try await client.send(Request<String>(path: "/text"))
        #expect(text == "héllo")
    }

    @Test func stringUsesCharsetFromContentType() async throws {
        // "héllo" in ISO-8859-1: é is the single byte 0xE9, which is invalid UTF-8.
        server.route(
            "/latin1",
            .respond(headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: [0x68, 0xE9, 0x6C, 0x6C, 0x6F]))
        let text = try await client.send(Request<String>(path: "/latin1"))
        #expect(text == "héllo")
    }

    @Test func stringRejectsInvalidUTF8() async throws {
        server.route("/bad", .respond(headers: ["Content-Type": "text/plain"], body: [0x68, 0xE9, 0x6C]))
        await #expect(throws: FetchError.conversionFailed(.undecodableText(charset: "utf-8"), url: server.url("/bad"))) {
            try await client.send(Request<String>(path: "/bad"))
        }
    }

    @Test func dataIsTheRawBody() async throws {
        let bytes: [UInt8] = [0, 1, 2, 250, 255]
        server.route("/bin", .respond(body: bytes))
        let response = try await client.response(for: Request<Data>(path: "/bin"))
        #expect(response.value == Data(bytes))
        #expect(response.statusCode == 200)
        #expect(response.url == server.url("/bin"))
        #expect(response.headers["content-length"] == "5")
    }
}
