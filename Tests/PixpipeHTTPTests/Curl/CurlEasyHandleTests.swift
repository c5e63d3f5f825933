internal import CLibCurl
import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// What an easy handle reads back from libcurl after a transfer, in the units libcurl reports.
@Suite("Curl easy handle")
struct CurlEasyHandleTests {
    /// `CURLINFO_CONNECT_TIME_T` counts microseconds: a loopback connection takes some, and far less than
    /// a second (read as seconds, the same number would be minutes or hours).
    @Test func connectTimeIsReadInMicroseconds() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/a", .text("a"))
        let easy = try #require(CurlEasyHandle())
        // The connection stays in the handle's cache until `destroy`, which closes it through the
        // close-socket callback: the counters it reports to must outlive the handle.
        let counters = CurlEngineCounters()
        defer {
            easy.destroy()
            withExtendedLifetime(counters) {}
        }
        #expect(easy.connectTime == .zero)

        // One transfer with the engine's own options and callbacks, run to the end on this thread.
        let request = CurlTransferRequest(url: server.url("/a"))
        let active = CurlActiveTransfer(
            transfer: CurlTransfer(request: request, sink: CurlBodyCollector()), easy: easy, now: .now)
        try easy.configure(
            for: request, context: Unmanaged.passUnretained(active).toOpaque(),
            socketContext: Unmanaged.passUnretained(counters).toOpaque())
        #expect(curl_easy_perform(easy.raw) == CURLE_OK)
        withExtendedLifetime(active) {}

        #expect(easy.connectTime > .zero)
        #expect(easy.connectTime < .seconds(5))
    }
}
