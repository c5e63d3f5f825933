import PixpipeTestSupport
import Testing

/// Each route answers with the status, headers and body it promises.
@Suite struct RouteResponseTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func get(_ path: String, headers: [String] = []) throws -> RawResponse {
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request(path, headers: headers))
        return try client.readResponse()
    }

    @Test func respondSendsExactBytesStatusAndHeaders() throws {
        server.route("/bytes", .respond(status: 201, headers: ["X-Test": "yes"], body: [0, 1, 2, 255]))
        let response = try get("/bytes")
        #expect(response.status == 201)
        #expect(response.header("x-test") == "yes")
        #expect(response.header("content-length") == "4")
        #expect(response.body == [0, 1, 2, 255])
    }

    @Test func textAndJSONCarryTheirContentTypes() throws {
        server.route("/text", .text("héllo", status: 202))
        server.route("/json", .json(#"{"a":1}"#))
        let text = try get("/text")
        #expect(text.status == 202)
        #expect(text.header("content-type") == "text/plain; charset=utf-8")
        #expect(text.text == "héllo")
        let json = try get("/json")
        #expect(json.header("content-type") == "application/json")
        #expect(json.text == #"{"a":1}"#)
    }

    @Test func unknownPathAnswers404() throws {
        let response = try get("/missing")
        #expect(response.status == 404)
        #expect(server.requestCount("/missing") == 1)
    }

    @Test func laterRouteReplacesEarlierOne() throws {
        server.route("/swap", .text("first"))
        server.route("/swap", .text("second"))
        #expect(try get("/swap").text == "second")
    }

    @Test func routesMatchThePathIgnoringTheQuery() throws {
        server.route("/search", .text("found"))
        #expect(try get("/search?q=cats&page=2").text == "found")
        let request = try #require(server.requests("/search").first)
        #expect(request.target == "/search?q=cats&page=2")
        #expect(request.path == "/search")
        #expect(request.query == "q=cats&page=2")
    }

    @Test func chunkedBodyDecodesToTheChunksJoined() throws {
        server.route("/chunks", .chunked(chunks: [[1, 2, 3], [], Array(repeating: 9, count: 300)]))
        let response = try get("/chunks")
        #expect(response.header("transfer-encoding") == "chunked")
        #expect(response.header("content-length") == nil)
        #expect(response.body == [1, 2, 3] + Array(repeating: 9, count: 300))
    }

    @Test func trickleDeliversTheWholeBodyWithItsLength() throws {
        let body = Array(UInt8(0)..<UInt8(10))
        server.route("/slow", .trickle(body: body, chunkSize: 3, interval: 0.01))
        let response = try get("/slow")
        #expect(response.header("content-length") == "10")
        #expect(response.body == body)
    }

    @Test func delayHeadersThenAnswers() throws {
        server.route("/late", .delayHeaders(seconds: 0.05, then: .text("late")))
        let started = ContinuousClock.now
        #expect(try get("/late").text == "late")
        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test(arguments: [(to: "/target", status: 302), (to: "http://127.0.0.1:1/elsewhere", status: 301)])
    func redirectSendsLocation(to location: String, status: Int) throws {
        server.route("/old", .redirect(to: location, status: status))
        let response = try get("/old")
        #expect(response.status == status)
        #expect(response.header("location") == location)
    }

    @Test(arguments: ["2", "Wed, 21 Oct 2015 07:28:00 GMT"])
    func retryAfterSendsTheExactValue(value: String) throws {
        server.route("/busy", .retryAfter(value: value))
        let response = try get("/busy")
        #expect(response.status == 503)
        #expect(response.header("retry-after") == value)
    }

    @Test func failFirstFailsThenSucceeds() throws {
        server.route("/flaky", .failFirst(2, status: 500, then: .text("ok")))
        let statuses = try (1...3).map { _ in try get("/flaky").status }
        #expect(statuses == [500, 500, 200])
        #expect(server.requestCount("/flaky") == 3)
        #expect(server.completedResponses("/flaky") == 3)
    }

    @Test func handlerSeesTheRequestAndDecides() throws {
        server.route(
            "/echo",
            .handler { request in
                request.method == "POST" ? .text(String(decoding: request.body, as: UTF8.self)) : .text("", status: 405)
            })
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/echo", method: "POST", headers: ["X-Token: abc"], body: "payload"))
        #expect(try client.readResponse().text == "payload")
        let request = try #require(server.requests("/echo").first)
        #expect(request.method == "POST")
        #expect(request.header("X-TOKEN") == "abc")
        #expect(request.body == Array("payload".utf8))
    }

    @Test func headRequestGetsHeadersWithoutBody() throws {
        server.route("/head", .text("twelve bytes"))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/head", method: "HEAD"))
        let response = try client.readResponse(forHead: true)
        #expect(response.header("content-length") == "12")
        try client.send(RawSocketClient.request("/head"))
        #expect(try client.readResponse().text == "twelve bytes")
    }

    @Test func chunkedRequestBodyIsRecordedDecoded() throws {
        server.route("/upload", .text("stored"))
        let client = try RawSocketClient(port: server.port)
        try client.send(
            "PUT /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"
        )
        #expect(try client.readResponse().text == "stored")
        #expect(server.requests("/upload").first?.body == Array("abcde".utf8))
    }
}
