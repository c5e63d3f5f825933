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

        func count(_ host: String) -> Int { times.withLock { $0[host]?.count ?? 0 } }

        /// Whether the k-th request to `host` (from 0) came no sooner than k intervals after `start`, the
        /// pacer's promise. Server-side gaps between two requests are not checked: one request sent late by a
        /// busy machine and the next on time arrive closer together than the interval, as the pacer allows.
        func keepsPace(_ host: String, interval: Duration, since start: ContinuousClock.Instant) -> Bool {
            let sorted = times.withLock { $0[host] ?? [] }.sorted()
            return sorted.enumerated().allSatisfy { index, time in
                time - start >= interval * index - .milliseconds(1)
            }
        }
    }

    /// A server answering `/a` with a JPEG, and the arrivals it records.
    static func imageServer() throws -> (TestHTTPServer, Arrivals) {
        let server = try TestHTTPServer()
        let arrivals = Arrivals()
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { request in
                arrivals.record(request)
                return .respond(body: jpeg)
            })
        return (server, arrivals)
    }

    @Test("At 10 requests a second per host, each host's k-th request comes k x 100 ms or more after the start")
    func ratePerHost() async throws {
        let (server, arrivals) = try Self.imageServer()
        let folder = TemporaryFolder()
        let hosts = ["127.0.0.1", "localhost"]
        let items = (0..<5).flatMap { index in
            hosts.map { host in
                DownloadItem(
                    url: URL(string: "http://\(host):\(server.port)/a?i=\(index)")!, name: "\(host)-\(index).jpg")
            }
        }
        var options = testOptions(folder)
        options.requestsPerSecond = 10
        let start = ContinuousClock.now
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == 10)
        for host in hosts {
            #expect(arrivals.count(host) == 5)
            #expect(arrivals.keepsPace(host, interval: .milliseconds(100), since: start), "\(host)")
        }
    }

    @Test("A host waiting for its next turn holds back no other host: neither its slot nor the window")
    func aSlowHostHoldsBackNoOther() async throws {
        let (server, arrivals) = try Self.imageServer()
        let folder = TemporaryFolder()
        // One request every 30 s to localhost: its second item waits the whole test for its turn. With one
        // connection in all, a window of a few items and the fast host's items after it in the list, they
        // could only go on if the waiting item held neither the connection nor the window.
        let slow = (0..<3).map { index in
            DownloadItem(url: URL(string: "http://localhost:\(server.port)/a?s=\(index)")!, name: "s\(index).jpg")
        }
        let fast = (0..<20).map { index in
            DownloadItem(url: URL(string: "http://127.0.0.1:\(server.port)/a?f=\(index)")!, name: "f\(index).jpg")
        }
        var options = testOptions(folder)
        options.concurrency = 1
        options.perHostConcurrency = 1
        options.hostRequestsPerSecond = ["localhost": 1.0 / 30]
        let events = Downloader(options: options).run(slow + fast)
        var fastDone = 0
        for await event in events {
            guard case .finished(_, let record) = event, record.status == .ok else { continue }
            if record.url.hasPrefix("http://127.0.0.1") { fastDone += 1 }
            if fastDone == fast.count { break }
        }
        events.cancel()
        #expect(fastDone == fast.count)
        #expect(arrivals.count("localhost") == 1)
        #expect(arrivals.count("127.0.0.1") == fast.count)
    }

    @Test("A host's own rate overrides the default")
    func hostOverride() async throws {
        let (server, arrivals) = try Self.imageServer()
        let folder = TemporaryFolder()
        let items = (0..<4).map { index in
            DownloadItem(url: URL(string: "http://localhost:\(server.port)/a?i=\(index)")!, name: "\(index).jpg")
        }
        var options = testOptions(folder)
        options.requestsPerSecond = 1000
        options.hostRequestsPerSecond = ["LOCALHOST": 5]
        let start = ContinuousClock.now
        #expect(await Downloader(options: options).download(items).ok == 4)
        #expect(ContinuousClock.now - start >= .milliseconds(3 * 190))
        #expect(arrivals.keepsPace("localhost", interval: .milliseconds(200), since: start))
    }

    @Test("503 without Retry-After slows the host: later requests are spaced, and the summary says so")
    func overloadSlowsTheHost() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let arrivals = Arrivals()
        let jpeg = Bodies.jpeg()
        let answered = Locked(0)
        server.route(
            "/a",
            .handler { request in
                arrivals.record(request)
                let count = answered.withLock { count -> Int in
                    count += 1
                    return count
                }
                return count == 1 ? .text("busy", status: 503) : .respond(body: jpeg)
            })
        let items = (0..<3).map { index in
            DownloadItem(url: URL(string: "http://127.0.0.1:\(server.port)/a?i=\(index)")!, name: "\(index).jpg")
        }
        var options = testOptions(folder)
        options.perHostConcurrency = 1
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == 3)
        #expect((summary.slowedHosts["127.0.0.1"] ?? 0) >= 0.05, "\(summary.slowedHosts)")
        let times = arrivals.times.withLock { $0["127.0.0.1"] ?? [] }.sorted()
        #expect(times.count == 4)
        // After the 503, every request waits at least the slowdown (50 ms, less a fifth per success).
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= .milliseconds(30), "\(times)")
        }
    }

    @Test("A slowdown that recovers while the host's items are parked loses none of them")
    func recoveryWhileParkedLosesNothing() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let jpeg = Bodies.jpeg()
        let answered = Locked(0)
        server.route(
            "/a",
            .handler { _ in
                let count = answered.withLock { count -> Int in
                    count += 1
                    return count
                }
                return count == 1 ? .text("busy", status: 503) : .respond(body: jpeg)
            })
        // One connection and a small window: items read after the 503 park behind the slowed host's one
        // counted item, and the slowdown ends (a fifth less per success) long before the list does.
        let items = (0..<60).map { index in
            DownloadItem(url: URL(string: "http://127.0.0.1:\(server.port)/a?i=\(index)")!, name: "\(index).jpg")
        }
        var options = testOptions(folder)
        options.concurrency = 1
        options.perHostConcurrency = 1
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == items.count)
        #expect(summary.failed == 0)
        let stored = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(stored.filter { $0.hasSuffix(".jpg") }.count == items.count)
    }

    @Test("429 with Retry-After pauses the whole host, not only the item that got it")
    func retryAfterPausesTheHost() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let arrivals = Arrivals()
        let jpeg = Bodies.jpeg()
        let start = Locked<ContinuousClock.Instant?>(nil)
        let firstAfterPause = Locked<ContinuousClock.Instant?>(nil)
        server.route(
            "/busy",
            .handler { request in
                arrivals.record(request)
                let first = start.withLock { value -> Bool in
                    defer { if value == nil { value = .now } }
                    return value == nil
                }
                return first ? .retryAfter(status: 429, value: "1") : .respond(body: jpeg)
            })
        server.route(
            "/other",
            .handler { request in
                arrivals.record(request)
                firstAfterPause.withLock { if $0 == nil { $0 = .now } }
                return .respond(body: jpeg)
            })
        let base = "http://127.0.0.1:\(server.port)"
        let items = [
            DownloadItem(url: URL(string: base + "/busy")!, name: "busy.jpg"),
            DownloadItem(url: URL(string: base + "/other")!, name: "other.jpg"),
        ]
        var options = testOptions(folder)
        options.perHostConcurrency = 1
        let summary = await Downloader(options: options).download(items)
        #expect(summary.ok == 2)
        let paused = try #require(start.withLock { $0 })
        let other = try #require(firstAfterPause.withLock { $0 })
        // One transfer at a time: /other starts after /busy's 429, and the host's pause covers it too.
        #expect(other - paused >= .milliseconds(950))
    }
}
