import Testing

@testable import PixpipeTestSupport

/// The request parser, fed bytes directly, without sockets.
@Suite struct HTTPRequestParserTests {
    private func parse(_ text: String, limit: Int = HTTPRequestParser.defaultHeaderLimit) throws -> [RecordedRequest] {
        var parser = HTTPRequestParser(headerLimit: limit, bodyLimit: 1000)
        parser.append(Array(text.utf8))
        var requests: [RecordedRequest] = []
        while let request = try parser.nextRequest() { requests.append(request) }
        return requests
    }

    @Test func requestSplitAcrossReadsWaitsForTheWhole() throws {
        var parser = HTTPRequestParser()
        let bytes = Array("POST /p?q=1 HTTP/1.1\r\nContent-Length: 5\r\nX-A: 1\r\nx-a: 2\r\n\r\nhello".utf8)
        for byte in bytes.dropLast() {
            parser.append([byte])
            #expect(try parser.nextRequest() == nil)
        }
        parser.append([bytes[bytes.count - 1]])
        let request = try #require(try parser.nextRequest())
        #expect(request.method == "POST")
        #expect(request.path == "/p")
        #expect(request.query == "q=1")
        #expect(request.header("x-a") == "1, 2")
        #expect(request.body == Array("hello".utf8))
    }

    @Test func pipelinedRequestsComeOutInOrder() throws {
        let requests = try parse("\r\nGET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(requests.map(\.path) == ["/a", "/b"])
        #expect(requests.map(\.wantsKeepAlive) == [true, true])
    }

    @Test func chunkedBodyIsDecoded() throws {
        let requests = try parse(
            "PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\nA\r\n0123456789\r\n0\r\nT: x\r\n\r\n")
        #expect(requests.first?.body == Array("abcd0123456789".utf8))
    }

    @Test func absoluteFormTargetMatchesByPath() throws {
        let requests = try parse("GET http://example.test:8080/img.png?s=2 HTTP/1.1\r\n\r\n")
        #expect(requests.first?.path == "/img.png")
        #expect(requests.first?.query == "s=2")
    }

    @Test(arguments: [
        ("GET /\r\n\r\n", HTTPRequestParseError.malformedRequestLine("GET /")),
        ("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n", .malformedHeader("Bad Header: x")),
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", .malformedHeader(" folded")),
        ("GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", .invalidContentLength("1x")),
        ("GET / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", .invalidContentLength("2, 3")),
        ("GET / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n", .bodyTooLarge(limit: 1000)),
        ("GET / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding("gzip")),
        (
            "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            .malformedChunk(reason: "invalid chunk size \"zz\"")
        ),
        (
            "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n",
            .malformedChunk(reason: "chunk data not followed by CRLF")
        ),
    ])
    func invalidRequestsThrowTheMatchingError(text: String, expected: HTTPRequestParseError) {
        #expect(throws: expected) { try parse(text) }
    }

    @Test func headerLimitAppliesBeforeTheHeadEnds() {
        #expect(throws: HTTPRequestParseError.headerTooLarge(limit: 100)) {
            try parse("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 200), limit: 100)
        }
        #expect(HTTPRequestParseError.headerTooLarge(limit: 100).responseStatus == 431)
    }
}
