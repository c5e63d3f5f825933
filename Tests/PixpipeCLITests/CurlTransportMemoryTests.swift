import Foundation
import PixpipeTestSupport
import Testing

extension PixpipeExecutable {
    /// `PixpipeRequestLoop`, built beside `pixpipe` (the test target depends on it), or `nil` when absent.
    static let requestLoop: PixpipeExecutable? = built.map {
        PixpipeExecutable(url: $0.url.deletingLastPathComponent().appendingPathComponent("PixpipeRequestLoop"))
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0.url.path) ? $0 : nil }
}

/// The curl transport keeps no memory per finished request: a child process sending 10,000 requests
/// through one `HTTPClient(transport: .curl)` peaks within 5 MB of one sending 1,000. Tighter than the
/// other memory tests on purpose: a deadline timer kept for 30 s after each request once cost 0.75 KB per
/// request (7 MB here), and a leak of 600 bytes per request still breaks it; measured flat within 1 MB.
@Suite(
    "curl transport memory", .serialized,
    .enabled(if: PixpipeExecutable.requestLoop != nil, "PixpipeRequestLoop is not built"))
struct CurlTransportMemoryTests {
    @Test func tenThousandRequestsLeaveMemoryFlat() throws {
        let server = try TestHTTPServer()
        let body = [UInt8](repeating: 7, count: 2048)
        server.route("/small", .respond(headers: ["Content-Type": "application/octet-stream"], body: body))
        let url = server.url("/small").absoluteString
        let loop = try #require(PixpipeExecutable.requestLoop).url.path
        let short = ChildProcessPeak.run(loop, [url, "1000", "8", "curl"])
        let long = ChildProcessPeak.run(loop, [url, "10000", "8", "curl"])
        #expect(short.status == 0 && long.status == 0)
        #expect(server.requestCount("/small") == 11_000)
        let message =
            "peak RSS \(short.peakMiB) MiB for 1,000 requests in \(short.duration), "
            + "\(long.peakMiB) MiB for 10,000 in \(long.duration)"
        #expect(short.peakBytes > 0, "\(message)")
        #expect(
            long.peakBytes <= short.peakBytes + 5_000_000 + ChildProcessUsage.sanitizerGrowthAllowance, "\(message)")
    }
}
