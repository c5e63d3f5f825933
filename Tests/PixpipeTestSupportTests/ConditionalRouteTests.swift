import PixpipeTestSupport
import Testing

/// The `.conditional` route: `304` for a matching validator, the body otherwise, as RFC 9110 13.2.2 orders it.
@Suite struct ConditionalRouteTests {
    static let date = "Sat, 01 Jun 2024 12:00:00 GMT"
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
        server.route("/c", .conditional(body: [1, 2, 3], etag: "W/\"v1\"", lastModified: Self.date))
    }

    private func get(_ headers: [String]) throws -> RawResponse {
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/c", headers: headers))
        return try client.readResponse()
    }

    @Test(
        "Not modified when a listed tag matches (weakly, or *), or without If-None-Match the date is the one sent",
        arguments: [
            ["If-None-Match: W/\"v1\""], ["If-None-Match: \"v1\""], ["If-None-Match: \"x\", W/\"v1\""],
            ["If-None-Match: *"], ["If-Modified-Since: \(date)"],
        ])
    func notModified(headers: [String]) throws {
        let response = try get(headers)
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("etag") == "W/\"v1\"" && response.header("last-modified") == Self.date)
    }

    @Test(
        "The body when nothing matches; If-Modified-Since is ignored beside a failing If-None-Match",
        arguments: [
            [], ["If-None-Match: \"v2\""], ["If-Modified-Since: Sun, 02 Jun 2024 12:00:00 GMT"],
            ["If-None-Match: \"v2\"", "If-Modified-Since: \(date)"],
        ])
    func modified(headers: [String]) throws {
        let response = try get(headers)
        #expect(response.status == 200)
        #expect(response.body == [1, 2, 3])
        #expect(response.header("etag") == "W/\"v1\"")
    }
}
