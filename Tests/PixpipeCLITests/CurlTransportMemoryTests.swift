import Foundation
import PixpipeTestSupport
import Testing

/// The curl transport keeps no memory per finished request: a child process sending 10,000 requests
/// through one `HTTPClient(transport: .curl)` peaks at no more than one sending 1,000 (loosely: 1.5
/// times plus 20 MB, which a leak of 2 KB per request would break).
@Suite(
    "curl transport memory", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: CurlTransportMemoryTests.loop), "not built"))
struct CurlTransportMemoryTests {
    /// `PixpipeRequestLoop`, built beside `pixpipe` (the test target depends on it).
    static let loop =
        PixpipeExecutable.built?.url.deletingLastPathComponent().appendingPathComponent("PixpipeRequestLoop").path
        ?? ""

    @Test func tenThousandRequestsLeaveMemoryFlat() throws {
        let server = try TestHTTPServer()
        server.route(
            "/small",
            .respond(
                headers: ["Content-Type": "application/octet-stream"],
                body: Array(
                    repeating: 7, count: 2048)))
        let url = server.url("/small").absoluteString
        let short = ChildProcessPeak.run(Self.loop, [url, "1000", "8", "curl"])
        let long = ChildProcessPeak.run(Self.loop, [url, "10000", "8", "curl"])
        #expect(short.status == 0 && long.status == 0)
        #expect(server.requestCount("/small") == 11_000)
        let message =
            "peak RSS \(short.peakMiB) MiB for 1,000 requests in \(short.duration), \(long.peakMiB) MiB for 10,000 in \(long.duration)"
        #expect(short.peakBytes > 0, "\(message)")
        #expect(Double(long.peakBytes) <= Double(short.peakBytes) * 1.5 + 20_000_000, "\(message)")
    }
}
