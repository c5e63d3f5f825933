import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Per-host request rates, as the server sees the requests arrive. Only lower bounds are checked: a slow
/// machine makes requests later, never earlier, so these cannot fail for want of CPU.
@Suite("Per-host request rates", .serialized)
struct HostRequestPacerTests {
    /// Arrival times of requests, by host header.
    final class Arrivals: Sendable {
        let times = Locked([String: [ContinuousClock.Instant]]())

        func record(_ request: RecordedRequest) {
            let host = request.headers["host"]?.split(separator: ":").first.map(String.init) ?? ""
            times.withLock { $0[host, default: []].append(.now) }
        }

        /// The smallest gap between two arrivals at `host`.
        func smallestGap(_ host: String) -> Duration? {
            let sorted = times.withLock { $0[host] ?? [] }.sorted()
            return zip(sorted, sorted.dropFirst()).map { $1 - $0 }.min()
        }

        func count(_ host: String) -> Int { times.withLock { $0[host]?.count ?? 0 } }
    }

    @Test("At 10 requests a second per host, two hosts each get their requests 100 ms apart or more")
    func ratePerHost() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let arrivals = Arrivals()
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { request in
                arrivals.record(request)
                return .respond(body: jpeg)
            })
        let hosts = ["127.0.0.1", "localhost"]
        let items = (0..<5).flatMap { index in
            hosts.map { host in
                DownloadItem(
                    url: URL(string: "http://\(host):\(server.port)/a?i=\(index)")!, name: "\(host)-\(index).jpg")
            }
        }
        var options = testOptions(folder)
        options.requestsPerSecond = 10
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == 10)
        for host in hosts {
            #expect(arrivals.count(host) == 5)
            let gap = try #require(arrivals.smallestGap(host))
            #expect(gap >= .milliseconds(90), "\(host): \(gap)")
        }
    }

    @Test("A host's own rate overrides the default; no rate at all leaves the batch unpaced")
    func hostOverride() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let arrivals = Arrivals()
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { request in
                arrivals.record(request)
                return .respond(body: jpeg)
            })
        let items = (0..<4).map { index in
            DownloadItem(url: URL(string: "http://localhost:\(server.port)/a?i=\(index)")!, name: "\(index).jpg")
        }
        var options = testOptions(folder)
        options.requestsPerSecond = 1000
        options.hostRequestsPerSecond = ["LOCALHOST": 5]
        let start = ContinuousClock.now
        #expect(await Downloader(options: options).download(items).ok == 4)
        #expect(ContinuousClock.now - start >= .milliseconds(3 * 190))
        #expect(try #require(arrivals.smallestGap("localhost")) >= .milliseconds(180))
        #expect(HostRequestPacer(options: testOptions(folder)) == nil)
    }
}
