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

    @Test(arguments: ["garbage\r\n", "HTTP/1.1 abc\r\n"])
    func malformedLinesAreReported(line: String) {
        #expect(feed([line]) == [.malformed])
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
