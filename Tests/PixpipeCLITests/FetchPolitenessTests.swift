import Foundation
import Pixpipe
import PixpipeLocking
import PixpipeTestSupport
import Testing

/// `pixpipe fetch --robots --respect-noai --json`, run as a process against a local server.
@Suite("pixpipe fetch: robots.txt and noai", .serialized)
struct FetchPolitenessTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        server.route("/robots.txt", .text("User-agent: *\nDisallow: /closed/\nCrawl-delay: 0.05\n"))
        server.route("/open.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route("/closed/a.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route(
            "/noai.png", .respond(headers: ["Content-Type": "image/png", "X-Robots-Tag": "noai"], body: png))
    }

    @Test("Disallowed and noai images are skipped with their errorKind, in the manifest, the JSON and the summary")
    func robotsAndNoAI() throws {
        let urls = ["/open.png", "/closed/a.png", "/noai.png"].map { server.url($0).absoluteString }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let result = try pixpipe.run([
            "fetch", list, "--out", folder.path("out"), "--robots", "--respect-noai", "--json", "--retries", "0",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(server.requestCount("/robots.txt") == 1)
        #expect(server.requestCount("/closed/a.png") == 0)
        let records = try manifestRecords(in: folder)
        #expect(
            Set(records.map { "\($0.url.split(separator: "/").last ?? "") \($0.status) \($0.errorKind ?? "")" }) == [
                "open.png ok ", "a.png skipped robots-disallowed", "noai.png skipped noai",
            ])
        #expect(
            result.outputLines.contains {
                $0.contains("\"event\":\"hostPace\"") && $0.contains("\"reason\":\"crawl-delay\"")
                    && $0.contains("\"interval\":0.05")
            }, "\(result.outputLines)")
        #expect(result.outputLines.last?.contains("\"robots-disallowed\":1") == true)
        #expect(result.errors.contains("robots.txt disallows them (--robots)"), "\(result.errors)")
        #expect(try folder.fileNames().contains("out"))
        #expect(FileManager.default.fileExists(atPath: folder.path("out/open.png")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/noai.png")))
    }

    @Test("--json tells when a host is slowed by a 503 and when it recovers")
    func paceEventsInJSON() throws {
        let png = Array(try TestImages.png())
        server.route("/busy.png", .failFirst(1, status: 503, then: .respond(body: png)))
        let urls =
            [server.url("/busy.png").absoluteString] + (0..<10).map { server.url("/open.png?i=\($0)").absoluteString }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let result = try pixpipe.run([
            "fetch", list, "--out", folder.path("out"), "--json", "--per-host", "1", "--name", "{index}",
        ])
        #expect(result.status == 0, "\(result.errors)")
        let paces = result.outputLines.filter { $0.contains("\"event\":\"hostPace\"") }
        #expect(paces.count == 2, "\(paces)")
        #expect(
            paces.first?.contains("\"reason\":\"slowed\"") == true && paces.first?.contains("\"interval\":0.05") == true
        )
        #expect(
            paces.last?.contains("\"reason\":\"recovered\"") == true
                && paces.last?.contains("\"host\":\"127.0.0.1\"") == true)
    }

    @Test("Without --robots and --respect-noai every image is fetched and robots.txt is not asked for")
    func offByDefault() throws {
        let urls = ["/open.png", "/closed/a.png", "/noai.png"].map { server.url($0).absoluteString }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--retries", "0"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(server.requestCount("/robots.txt") == 0)
        #expect(try manifestRecords(in: folder).allSatisfy { $0.status == .ok })
    }

    @Test("The User-Agent names pixpipe and the version --version prints; --user-agent replaces it everywhere")
    func userAgent() throws {
        let version = try pixpipe.run(["--version"]).outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        let number = try #require(version.split(separator: " ").last, "\(version)")
        let list = try folder.write(Data((server.url("/open.png").absoluteString + "\n").utf8), to: "list.txt")
        let plain = try pixpipe.run(["fetch", list, "--out", folder.path("plain"), "--robots"])
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(server.requests("/open.png").map { $0.header("user-agent") } == ["Pixpipe/\(number)"])
        #expect(server.requests("/robots.txt").map { $0.header("user-agent") } == ["Pixpipe/\(number)"])

        let named = try pixpipe.run([
            "fetch", list, "--out", folder.path("named"), "--robots", "--user-agent",
            "ComicShelf/2.1 (+mail@example.com)",
        ])
        #expect(named.status == 0, "\(named.errors)")
        // The robots.txt request and the image request both carry the user's text, and nothing else is added.
        #expect(server.requests("/open.png").last?.header("user-agent") == "ComicShelf/2.1 (+mail@example.com)")
        #expect(server.requests("/robots.txt").last?.header("user-agent") == "ComicShelf/2.1 (+mail@example.com)")
    }

    @Test("fetch --help names every politeness and archive option with its default")
    func helpNamesThePolitenessOptions() throws {
        let help = try pixpipe.run(["fetch", "--help"])
        #expect(help.status == 0)
        #expect(help.errors.isEmpty)
        let text = help.outputText
        for option in [
            "--rate [HOST=]N[/s|/min]", "--per-host N", "--max-parked N", "--robots", "--respect-noai",
            "--user-agent TEXT", "--archive KIND", "--shard-size N", "--group-by COLUMN", "--shard I/N",
        ] {
            #expect(text.contains(option), "\(option)")
        }
        #expect(text.contains("(default 8)") && text.contains("(default: no rate)") && text.contains("(default 1000)"))
        #expect(text.contains("Retry-After") && text.contains("Crawl-delay") && text.contains("noimageai"))
    }

    @Test(
        "Two shards run at once into one folder keep --rate 10/s together: the k-th request comes k x 100 ms or more after the start"
    )
    func shardsShareTheRate() throws {
        let times = Locked([ContinuousClock.Instant]())
        let png = Array(try TestImages.png())
        server.route(
            "/paced.png",
            .handler { _ in
                times.withLock { $0.append(.now) }
                return .respond(headers: ["Content-Type": "image/png"], body: png)
            })
        let urls = (0..<10).map { server.url("/paced.png?i=\($0)").absoluteString }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let statuses = Locked([Int32]())
        let pixpipe = self.pixpipe
        let out = folder.path("out")
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: 2) { shard in
            let status =
                (try? pixpipe.run(["fetch", list, "--out", out, "--rate", "10/s", "--shard", "\(shard)/2"]))?.status
                ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == [0, 0])
        #expect(try manifestRecords(in: folder).filter { $0.status == .ok }.count == 10)
        let sorted = times.withLock { $0 }.sorted()
        #expect(sorted.count == 10)
        // Lower bounds only, which a loaded machine cannot break: the k-th request (from 0) of the two shards
        // together comes no sooner than k x 100 ms after the start.
        for (index, time) in sorted.enumerated() {
            #expect(time - start >= .milliseconds(100) * index - .milliseconds(1), "\(index): \(sorted)")
        }
    }
}
