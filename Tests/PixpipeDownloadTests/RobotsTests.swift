import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Checks that requests paced `interval` apart arrived no sooner than the pacer allows: the k-th (from 0) no
/// sooner than k intervals after `start`, taken before the run. A lower bound a loaded machine cannot break
/// (it only makes requests later); gaps between two arrivals are not checked, since one request sent late
/// and the next on time arrive closer together than the interval, as the pacer allows.
func expectSpaced(
    _ sorted: [ContinuousClock.Instant], by interval: Duration, since start: ContinuousClock.Instant,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (index, time) in sorted.enumerated() {
        #expect(
            time - start >= interval * index - .milliseconds(1), "\(index): \(sorted)", sourceLocation: sourceLocation)
    }
}

/// robots.txt, `X-Robots-Tag: noai` and host pace events, as a server on 127.0.0.1 sees the requests.
/// Times are only checked as lower bounds: a slow machine asks later, never earlier.
@Suite("robots.txt, noai and pace events", .serialized)
struct RobotsTests {
    /// A server answering every path in `paths` with a JPEG, and `/robots.txt` with `robots`.
    static func server(robots: TestRoute?, paths: [String]) throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        if let robots { server.route("/robots.txt", robots) }
        for (index, path) in paths.enumerated() { server.route(path, .respond(body: Bodies.jpeg(seed: index))) }
        return server
    }

    private func options(_ folder: TemporaryFolder) -> DownloadOptions {
        var options = testOptions(folder)
        options.obeysRobotsTxt = true
        return options
    }

    @Test("Disallowed URLs are never requested, recorded skipped; robots.txt is fetched once for 8 concurrent items")
    func disallowedNeverRequested() async throws {
        let robots = """
            User-agent: *
            Disallow: /

            User-agent: Pixpipe
            Disallow: /secret/
            Allow: /secret/open
            Disallow: /*.gif$
            """
        // Held back a little, so the items all ask for the rules while the one fetch is under way.
        let paths =
            (0..<4).map { "/public/\($0).jpg" } + ["/secret/a.jpg", "/secret/b.jpg", "/secret/open.jpg", "/x.gif"]
        let server = try Self.server(robots: .delayHeaders(seconds: 0.2, then: .text(robots)), paths: paths)
        let folder = TemporaryFolder()
        var options = options(folder)
        options.concurrency = 8
        options.perHostConcurrency = 8
        let events = await collectEvents(
            Downloader(options: options), paths.map { DownloadItem(url: server.url($0)) })
        let results = records(events)
        #expect(server.requestCount("/robots.txt") == 1)
        // Asked for with the same User-Agent as the images, naming the product token the rules are read for.
        #expect(server.requests("/robots.txt").first?.header("user-agent")?.hasPrefix("Pixpipe/") == true)
        for path in ["/secret/a.jpg", "/secret/b.jpg", "/x.gif"] {
            #expect(server.requestCount(path) == 0, "\(path)")
        }
        for (index, path) in paths.enumerated() {
            let disallowed = path.hasPrefix("/secret/") && path != "/secret/open.jpg" || path.hasSuffix(".gif")
            #expect(results[index]?.status == (disallowed ? .skipped : .ok), "\(path)")
            if disallowed { #expect(results[index]?.errorKind == "robots-disallowed") }
        }
        #expect(summary(events)?.skippedByReason["robots-disallowed"] == 3)
        // Recorded in the manifest, so the folder says why those files are missing.
        let manifest = folder.manifest()
        #expect(manifest.filter { $0.errorKind == "robots-disallowed" }.count == 3)
        #expect(manifest.first { $0.errorKind == "robots-disallowed" }?.error?.contains("robots.txt") == true)
    }

    @Test("Each host's robots.txt is fetched once and applies to that host alone")
    func perHost() async throws {
        let server = try TestHTTPServer()
        let seen = Locked([String]())
        server.route(
            "/robots.txt",
            .handler { request in
                let host = request.header("host")?.split(separator: ":").first.map(String.init) ?? ""
                seen.withLock { $0.append(host) }
                return .text(host == "localhost" ? "User-agent: *\nDisallow: /a\n" : "")
            })
        server.route("/a", .respond(body: Bodies.jpeg()))
        let folder = TemporaryFolder()
        let items = (0..<3).flatMap { index in
            ["127.0.0.1", "localhost"].map { host in
                DownloadItem(url: URL(string: "http://\(host):\(server.port)/a?i=\(index)")!, name: "\(host)-\(index)")
            }
        }
        let summary = await Downloader(options: options(folder)).download(items)
        #expect(seen.withLock { $0.sorted() } == ["127.0.0.1", "localhost"])
        #expect(summary.ok == 3)
        #expect(summary.skippedByReason["robots-disallowed"] == 3)
        #expect(server.requests("/a").allSatisfy { $0.header("host")?.hasPrefix("127.0.0.1") == true })
    }

    @Test("A robots.txt answered 404 allows everything")
    func missingAllows() async throws {
        let server = try Self.server(robots: nil, paths: ["/a.jpg", "/b.jpg"])
        let folder = TemporaryFolder()
        let summary = await Downloader(options: options(folder)).download(
            ["/a.jpg", "/b.jpg"].map { DownloadItem(url: server.url($0)) })
        #expect(summary.ok == 2)
        #expect(server.requestCount("/robots.txt") == 1)
    }

    @Test("A robots.txt answered 503, or not at all, skips the whole host for the run")
    func unreachableDisallows() async throws {
        for route in [TestRoute.text("down", status: 503), .reset] {
            let server = try Self.server(robots: route, paths: ["/a.jpg", "/b.jpg"])
            let folder = TemporaryFolder()
            var options = options(folder)
            options.retryPolicy = .none
            let events = await collectEvents(
                Downloader(options: options), ["/a.jpg", "/b.jpg"].map { DownloadItem(url: server.url($0)) })
            #expect(server.requestCount("/a.jpg") + server.requestCount("/b.jpg") == 0)
            #expect(server.requestCount("/robots.txt") == 1)
            #expect(records(events).values.allSatisfy { $0.errorKind == "robots-disallowed" })
            #expect(records(events).values.allSatisfy { $0.error?.contains("skipped this run") == true })
        }
    }

    @Test("Redirects to robots.txt are followed")
    func redirectFollowed() async throws {
        let server = try Self.server(robots: .redirect(to: "/moved/robots.txt"), paths: ["/a.jpg", "/b.jpg"])
        server.route("/moved/robots.txt", .text("User-agent: *\nDisallow: /b\n"))
        let folder = TemporaryFolder()
        let summary = await Downloader(options: options(folder)).download(
            ["/a.jpg", "/b.jpg"].map { DownloadItem(url: server.url($0)) })
        #expect(summary.ok == 1)
        #expect(server.requestCount("/b.jpg") == 0)
    }

    @Test("Five redirects are followed; past five the robots.txt counts as missing (all allowed)")
    func redirectLimit() async throws {
        for (hops, allowed) in [(5, false), (6, true)] {
            let server = try Self.server(robots: .redirect(to: "/hop1"), paths: ["/a.jpg"])
            for hop in 1..<hops { server.route("/hop\(hop)", .redirect(to: "/hop\(hop + 1)")) }
            server.route("/hop\(hops)", .text("User-agent: *\nDisallow: /\n"))
            let folder = TemporaryFolder()
            let summary = await Downloader(options: options(folder)).download([DownloadItem(url: server.url("/a.jpg"))])
            #expect(summary.ok == (allowed ? 1 : 0), "\(hops) hops")
            #expect(server.requestCount("/a.jpg") == (allowed ? 1 : 0), "\(hops) hops")
            #expect(server.requestCount("/hop\(hops)") == (allowed ? 0 : 1), "\(hops) hops")
        }
    }

    @Test("Without the option, robots.txt is never asked for")
    func offByDefault() async throws {
        let server = try Self.server(robots: .text("User-agent: *\nDisallow: /\n"), paths: ["/a.jpg"])
        let folder = TemporaryFolder()
        let summary = await Downloader(options: testOptions(folder)).download([DownloadItem(url: server.url("/a.jpg"))])
        #expect(summary.ok == 1)
        #expect(server.requestCount("/robots.txt") == 0)
    }

    @Test("Crawl-delay spaces the host's requests at least that far apart, and is an event")
    func crawlDelay() async throws {
        let server = try TestHTTPServer()
        server.route("/robots.txt", .text("User-agent: pixpipe\nCrawl-delay: 0.2\n"))
        let times = Locked([ContinuousClock.Instant]())
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { _ in
                times.withLock { $0.append(.now) }
                return .respond(body: jpeg)
            })
        let folder = TemporaryFolder()
        var options = options(folder)
        options.perHostConcurrency = 4
        let start = ContinuousClock.now
        let events = await collectEvents(
            Downloader(options: options), (0..<4).map { DownloadItem(url: server.url("/a?i=\($0)"), name: "\($0)") })
        #expect(summary(events)?.ok == 4)
        let sorted = times.withLock { $0 }.sorted()
        #expect(sorted.count == 4)
        expectSpaced(sorted, by: .milliseconds(200), since: start)
        let paces = events.compactMap { event -> HostPaceChange? in
            if case .hostPace(let change) = event { return change }
            return nil
        }
        #expect(paces == [HostPaceChange(host: "127.0.0.1", reason: .crawlDelay, intervalSeconds: 0.2)])
    }

    @Test("An image whose X-Robots-Tag says noai is skipped at its headers: its large body is never read")
    func noAIBodyNotRead() async throws {
        let server = try TestHTTPServer()
        // 32 MB: far more than socket buffers hold, so the server cannot finish sending it unless it is read.
        var large = Bodies.jpeg()
        large += [UInt8](repeating: 0, count: 32 << 20)
        server.route("/noai.jpg", .respond(headers: ["X-Robots-Tag": "noindex, NoAI"], body: large))
        server.route("/scoped.jpg", .respond(headers: ["X-Robots-Tag": "pixpipe: noimageai"], body: Bodies.jpeg()))
        server.route("/other.jpg", .respond(headers: ["X-Robots-Tag": "otherbot: noai"], body: Bodies.jpeg(seed: 1)))
        server.route("/plain.jpg", .respond(body: Bodies.jpeg(seed: 2)))
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        options.respectsNoAI = true
        let paths = ["/noai.jpg", "/scoped.jpg", "/other.jpg", "/plain.jpg"]
        let events = await collectEvents(Downloader(options: options), paths.map { DownloadItem(url: server.url($0)) })
        let results = records(events)
        #expect(results[0]?.status == .skipped)
        #expect(results[0]?.errorKind == "noai")
        #expect(results[1]?.errorKind == "noai")
        #expect(results[2]?.status == .ok)
        #expect(results[3]?.status == .ok)
        #expect(server.requestCount("/noai.jpg") == 1)
        #expect(await server.waitForAbortedResponse("/noai.jpg", timeout: 30))
        #expect(server.completedResponses("/noai.jpg") == 0)
        #expect(folder.manifest().filter { $0.errorKind == "noai" }.count == 2)
        #expect(folder.imageNames() == ["other.jpg", "plain.jpg"])
    }

    @Test("Without the option, a noai image is stored")
    func noAIOffByDefault() async throws {
        let server = try TestHTTPServer()
        server.route("/noai.jpg", .respond(headers: ["X-Robots-Tag": "noai"], body: Bodies.jpeg()))
        let folder = TemporaryFolder()
        let summary = await Downloader(options: testOptions(folder)).download([
            DownloadItem(url: server.url("/noai.jpg"))
        ])
        #expect(summary.ok == 1)
    }

    @Test("X-Robots-Tag values: plain, scoped, comma lists, several fields, valued directives")
    func directives() {
        func optOut(_ values: [String]) -> String? { NoAIDirectives.optOut(in: values, productToken: "Pixpipe") }
        #expect(optOut(["noai"]) == "noai")
        #expect(optOut(["noindex, NOIMAGEAI"]) == "noimageai")
        #expect(optOut(["Pixpipe: noai"]) == "noai")
        #expect(optOut(["otherbot: noai"]) == nil)
        #expect(optOut(["otherbot: noindex, noai"]) == nil)
        #expect(optOut(["otherbot: noindex", "noai"]) == "noai")
        #expect(optOut(["otherbot: noai, pixpipe: noimageai"]) == "noimageai")
        #expect(optOut(["unavailable_after: 25 Jun 2030 15:00:00 GMT, noai"]) == "noai")
        #expect(optOut(["noindex", "nofollow"]) == nil)
        #expect(optOut([]) == nil)
    }

    @Test("Pace events: a host slowed by a 503 recovers after successes; a Retry-After pauses it")
    func paceEvents() async throws {
        let server = try TestHTTPServer()
        let answered = Locked(0)
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { _ in
                let count = answered.withLock { count -> Int in
                    count += 1
                    return count
                }
                switch count {
                case 1: return .text("busy", status: 503)
                case 2: return .retryAfter(status: 429, value: "1")
                default: return .respond(body: jpeg)
                }
            })
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        options.perHostConcurrency = 1
        options.retryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(1), maxDelay: .milliseconds(20))
        let events = await collectEvents(
            Downloader(options: options), (0..<12).map { DownloadItem(url: server.url("/a?i=\($0)"), name: "\($0)") })
        #expect(summary(events)?.ok == 12)
        let paces = events.compactMap { event -> HostPaceChange? in
            if case .hostPace(let change) = event { return change }
            return nil
        }
        #expect(paces.map(\.reason) == [.slowed, .paused, .recovered], "\(paces)")
        #expect(paces.first?.intervalSeconds == 0.05)
        #expect(paces.dropFirst().first?.pauseSeconds == 1)
        #expect(paces.last?.intervalSeconds == 0)
        #expect(paces.allSatisfy { $0.host == "127.0.0.1" })
    }
}

/// The per-host rate across the shards writing to one folder, through the slot files under `.pixpipe/pace`.
@Suite("Per-host rates across shards", .serialized)
struct SharedRateTests {
    @Test("Two shards at 10 requests a second into one folder ask the host 100 ms apart or more, together")
    func shardsShareTheRate() async throws {
        let server = try TestHTTPServer()
        let times = Locked([ContinuousClock.Instant]())
        let jpeg = Bodies.jpeg()
        server.route(
            "/a",
            .handler { _ in
                times.withLock { $0.append(.now) }
                return .respond(body: jpeg)
            })
        let folder = TemporaryFolder()
        let items = (0..<12).map { DownloadItem(url: server.url("/a?i=\($0)"), name: "\($0)") }
        func shard(_ index: Int) -> Downloader {
            var options = testOptions(folder)
            options.requestsPerSecond = 10
            options.shard = try? Shard(index: index, count: 2)
            return Downloader(options: options)
        }
        let (zero, one) = (shard(0), shard(1))
        let start = ContinuousClock.now
        async let first = zero.download(items)
        async let second = one.download(items)
        let (a, b) = await (first, second)
        #expect(a.ok > 0 && b.ok > 0)
        #expect(a.ok + b.ok == 12)
        let sorted = times.withLock { $0 }.sorted()
        #expect(sorted.count == 12)
        expectSpaced(sorted, by: .milliseconds(100), since: start)
        #expect(FileManager.default.fileExists(atPath: folder.url.path + "/.pixpipe/pace/127.0.0.1"))
    }

    @Test("Without a rate, shards keep their shared pace and slots in .pixpipe alone")
    func noRateSharedFiles() async throws {
        let server = try TestHTTPServer()
        server.route("/a", .respond(body: Bodies.jpeg()))
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        options.shard = try Shard(index: 0, count: 1)
        let summary = await Downloader(options: options).download([DownloadItem(url: server.url("/a"))])
        #expect(summary.ok == 1)
        // A slowdown or pause another shard is told must reach this one, rate or not.
        let shared = folder.url.path + "/.pixpipe"
        #expect(Set((try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? []) == ["pace", "slots"])
        #expect(FileManager.default.fileExists(atPath: shared + "/pace/127.0.0.1"))
        #expect(FileManager.default.fileExists(atPath: shared + "/slots/127.0.0.1_\(server.port)/0"))
        #expect(folder.names().filter { $0.hasPrefix(".") } == [".pixpipe"])
    }
}
