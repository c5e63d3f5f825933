import Testing

@testable import PixpipeHTTP

@Suite("Curl response head parser")
struct CurlResponseHeadParserTests {
    private func feed(_ lines: [String]) -> [CurlResponseHeadParser.Event] {
        var parser = CurlResponseHeadParser()
        return lines.map { parser.consume(Substring($0)) }
    }

    @Test func completesAHeadAtTheBlankLine() {
        let events = feed(["HTTP/1.1 200 OK\r\n", "Content-Type: text/plain\r\n", "Content-Length:  12 \r\n", "\r\n"])
        let expected = CurlResponseHead(
            statusCode: 200, httpVersion: "HTTP/1.1",
            headers: [
                CurlHeaderField(name: "Content-Type", value: "text/plain"),
                CurlHeaderField(name: "Content-Length", value: "12"),
            ])
        #expect(events == [.none, .none, .none, .complete(expected)])
        #expect(expected.contentLength == 12)
    }

    @Test func interimResponsesDoNotLeakHeadersIntoTheFinalOne() {
        let events = feed(["HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n", "HTTP/2 204\r\n", "\r\n"])
        #expect(events[2] == .interim)
        #expect(events[4] == .complete(CurlResponseHead(statusCode: 204, httpVersion: "HTTP/2", headers: [])))
    }

    @Test func eachRedirectHopStartsAFreshHead() {
        let events = feed([
            "HTTP/1.1 302 Found\r\n", "Location: /b\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "X-Final: yes\r\n", "\r\n",
        ])
        guard case .complete(let hop) = events[2], case .complete(let final) = events[5] else {
            Issue.record("expected two complete heads, got \(events)")
            return
        }
        #expect(hop.value(for: "location") == "/b")
        #expect(final.headers == [CurlHeaderField(name: "X-Final", value: "yes")])
    }

    @Test(arguments: [
        "garbage\r\n", "HTTP/1.1 abc\r\n", "HTTP/1.1\r\n", "HTTP/1.1 20\r\n", "HTTP/1.1 2000 OK\r\n",
        "HTTP/1.1 099 Low\r\n", "HTTP/1.1 200OK\r\n",
    ])
    func malformedLinesAreReported(line: String) {
        #expect(feed([line]) == [.malformed])
    }

    @Test func foldedLinesContinueTheValueAndLaterFieldsStayIntact() {
        let events = feed(["HTTP/1.1 200 OK\r\n", "X-Long: one\r\n", " \ttwo \r\n", "X-Next:  three\r\n", "\r\n"])
        let expected = [
            CurlHeaderField(name: "X-Long", value: "one two"), CurlHeaderField(name: "X-Next", value: "three"),
        ]
        guard case .complete(let head) = events[4] else {
            Issue.record("expected a complete head, got \(events)")
            return
        }
        #expect(head.headers == expected)
        #expect(head.value(for: "x-long") == "one two")
        #expect(head.value(for: "x-longer") == nil)
    }

    @Test(
        arguments: [("12", 12), ("0", 0), ("", nil), ("-1", nil), ("12a", nil), ("9999999999999999999999", nil)]
            as [(String, Int64?)])
    func contentLengthIsADecimalNumberOrNothing(value: String, expected: Int64?) {
        let head = CurlResponseHead(
            statusCode: 200, httpVersion: "HTTP/1.1", headers: [CurlHeaderField(name: "content-length", value: value)])
        #expect(head.contentLength == expected)
    }

    @Test func statusLinesWithoutReasonOrWithExtraSpacesParse() {
        #expect(
            feed(["HTTP/2 404\r\n", "\r\n"])[1]
                == .complete(CurlResponseHead(statusCode: 404, httpVersion: "HTTP/2", headers: [])))
        #expect(
            feed(["HTTP/1.0  503  Busy now\r\n", "\r\n"])[1]
                == .complete(CurlResponseHead(statusCode: 503, httpVersion: "HTTP/1.0", headers: [])))
    }

    @Test func contentEncodingOtherThanIdentityIsNoticed() {
        let gzip = CurlResponseHead(
            statusCode: 200, httpVersion: "HTTP/1.1",
            headers: [CurlHeaderField(name: "content-encoding", value: "gzip")])
        let identity = CurlResponseHead(
            statusCode: 200, httpVersion: "HTTP/1.1",
            headers: [CurlHeaderField(name: "Content-Encoding", value: "identity")])
        #expect(gzip.hasContentEncoding)
        #expect(!identity.hasContentEncoding)
    }
}
