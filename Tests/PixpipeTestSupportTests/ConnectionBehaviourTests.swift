import PixpipeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Connections: reuse, closing, cut-off transfers, resets, and stopping.
@Suite struct ConnectionBehaviourTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        server.route("/a", .text("one"))
        server.route("/b", .text("two"))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/a"))
        #expect(try client.readResponse().text == "one")
        try client.send(RawSocketClient.request("/b"))
        #expect(try client.readResponse().text == "two")
        #expect(server.connectionCount == 1)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        server.route("/a", .text("one"))
        server.route("/b", .delayHeaders(seconds: 0.01, then: .text("two")))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/b") + RawSocketClient.request("/a"))
        #expect(try client.readResponse().text == "two")
        #expect(try client.readResponse().text == "one")
    }

    @Test func connectionCloseIsHonoured() throws {
        server.route("/bye", .text("bye"))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/bye", headers: ["Connection: close"]))
        let response = try client.readResponse()
        #expect(response.header("connection") == "close")
        #expect(try client.receiveSome().isEmpty)
    }

    @Test func truncatedDeclaresMoreThanItSendsThenCloses() throws {
        server.route("/cut", .truncated(body: Array(repeating: 7, count: 10), declaredLength: 100))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/cut"))
        #expect(throws: RawSocketClient.ClientError.closedBeforeResponseEnded(receivedBodyBytes: 10)) {
            try client.readResponse()
        }
    }

    @Test func resetGivesAConnectionError() throws {
        server.route("/rst", .reset)
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/rst"))
        #expect(throws: RawSocketClient.ClientError.receiveFailed(errorNumber: ECONNRESET)) {
            try client.readResponse()
        }
        #expect(server.requestCount("/rst") == 1)
    }

    @Test func endlessStreamCountsAsAbortedWhenTheClientLeaves() async throws {
        server.route("/forever", .endless(chunkSize: 1024))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/forever"))
        _ = try client.receive(atLeast: 100_000)
        client.close()
        #expect(await server.waitForAbortedResponse("/forever", timeout: 5))
        #expect(server.completedResponses("/forever") == 0)
    }

    @Test func clientLeavingDuringADelayCountsAsAborted() async throws {
        server.route("/wait", .delayHeaders(seconds: 30, then: .text("never")))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/wait"))
        #expect(await server.waitForRequests("/wait", count: 1, timeout: 5))
        client.close()
        #expect(await server.waitForAbortedResponse("/wait", timeout: 5))
    }

    @Test func headersForeverNeverEndsTheHead() throws {
        server.route("/heads", .headersForever)
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/heads"))
        let received = try client.receive(atLeast: 256 * 1024)
        #expect(received.starts(with: Array("HTTP/1.1 200 OK\r\n".utf8)))
        #expect(received.firstRange(of: [13, 10, 13, 10]) == nil)
    }

    @Test func oversizedRequestHeadGets431() throws {
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/big", headers: ["X-Big: " + String(repeating: "a", count: 70_000)]))
        let response = try client.readResponse()
        #expect(response.status == 431)
        #expect(try client.receiveSome().isEmpty)
    }

    @Test func malformedRequestGets400() throws {
        let client = try RawSocketClient(port: server.port)
        try client.send("NOT A REQUEST\r\n\r\n")
        #expect(try client.readResponse().status == 400)
    }

    @Test func stopMakesConnectingFail() throws {
        let port = server.port
        server.stop()
        #expect(throws: RawSocketClient.ClientError.connectFailed(errorNumber: ECONNREFUSED)) {
            try RawSocketClient(port: port)
        }
    }

    @Test func stopEndsAnOpenSlowResponsePromptly() async throws {
        server.route("/slow", .delayHeaders(seconds: 30, then: .text("never")))
        let client = try RawSocketClient(port: server.port)
        try client.send(RawSocketClient.request("/slow"))
        #expect(await server.waitForRequests("/slow", count: 1, timeout: 5))
        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(try client.receiveSome().isEmpty)
        #expect(server.abortedResponses("/slow") == 0)
    }

    @Test func stopIsIdempotent() throws {
        server.stop()
        server.stop()
        #expect(server.connectionCount == 0)
    }

    @Test func droppingTheServerStopsIt() throws {
        var server: TestHTTPServer? = try TestHTTPServer()
        let port = try #require(server?.port)
        server = nil
        #expect(throws: RawSocketClient.ClientError.connectFailed(errorNumber: ECONNREFUSED)) {
            try RawSocketClient(port: port)
        }
    }
}
