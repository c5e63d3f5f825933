import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The manifest of `directory`, one decoded record per line.
func manifestRecords(in directory: TemporaryDirectory) throws -> [ManifestRecord] {
    let text = try String(contentsOfFile: directory.path("out/manifest.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map { try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8)) }
}

@Suite("pixpipe fetch: batches against a local server", .serialized)
struct FetchCommandTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    let png: [UInt8]

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        png = Array(try TestImages.png())
        server.route("/good.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route("/other.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route("/page.html", .text("<html></html>", contentType: "text/html"))
        server.route("/cut.png", .truncated(body: Array(png.prefix(png.count / 2)), declaredLength: png.count))
    }

    /// Writes a list of `lines` and returns its path.
    func list(_ lines: [String], name: String = "list.txt") throws -> String {
        try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: name)
    }

    func run(_ arguments: [String]) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["fetch"] + arguments + ["--retries", "1", "--timeout", "5"])
    }

    @Test("Good, 404, non-image, truncated and bad lines: exit 1, every outcome in the manifest, files decode")
    func mixedBatch() throws {
        let path = try list([
            "# a test list", server.url("/good.png").absoluteString, server.url("/missing.png").absoluteString,
            server.url("/page.html").absoluteString, server.url("/cut.png").absoluteString, "not a url",
            "ftp://example.com/x.png",
        ])
        let result = try run([path, "--out", folder.path("out")])
        #expect(result.status == 1)
        #expect(result.outputLines == [folder.path("out") + "/good.png"])
        #expect(result.errors.contains("line 6: 'not a url' is not an absolute http or https URL"))
        #expect(result.errors.contains("failures:"))
        let records = try manifestRecords(in: folder)
        let kinds = Dictionary(records.map { ($0.url, $0.errorKind ?? $0.status.rawValue) }) { first, _ in first }
        #expect(kinds[server.url("/good.png").absoluteString] == "ok")
        #expect(kinds[server.url("/missing.png").absoluteString] == "http-status")
        #expect(kinds[server.url("/page.html").absoluteString] == "not-an-image")
        #expect(kinds[server.url("/cut.png").absoluteString] != nil)
        #expect(kinds[server.url("/cut.png").absoluteString] != "ok")
        #expect(kinds["not a url"] == "invalid-url")
        #expect(kinds["ftp://example.com/x.png"] == "unsupported-scheme")
        #expect(records.count == 6)
        let image = try Image(contentsOfFile: folder.path("out/good.png"))
        #expect(image.width == 16)
        #expect(try folder.fileNames().contains("out"))
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: folder.path("out"))).contains {
                $0.hasSuffix(".part")
            })
    }

    @Test("--no-verify stores a body whose header is whole without decoding it; --fsync-each is accepted")
    func noVerify() throws {
        let damaged = Array(png.prefix(png.count - 20))
        server.route("/damaged.png", .respond(headers: ["Content-Type": "image/png"], body: damaged))
        let path = try list([server.url("/damaged.png").absoluteString, server.url("/page.html").absoluteString])
        let result = try run([path, "--out", folder.path("out"), "--no-verify", "--fsync-each"])
        #expect(result.status == 1)
        #expect(result.outputLines == [folder.path("out") + "/damaged.png"])
        let records = try manifestRecords(in: folder)
        let stored = try #require(records.first { $0.name == "damaged.png" })
        #expect(stored.status == .ok && stored.width == 16 && stored.attempts == 1)
        #expect(FileManager.default.contents(atPath: folder.path("out/damaged.png")) == Data(damaged))
        // Without --no-verify the same body is refused.
        let verified = try run([path, "--out", folder.path("verified")])
        #expect(verified.status == 1 && verified.outputLines.isEmpty)
    }

    @Test("A second run downloads nothing again and leaves the manifest as it was")
    func resume() throws {
        let path = try list([server.url("/good.png").absoluteString, "not a url"])
        _ = try run([path, "--out", folder.path("out")])
        let firstManifest = try manifestRecords(in: folder)
        #expect(server.requestCount("/good.png") == 1)
        let second = try run([path, "--out", folder.path("out"), "--json"])
        #expect(second.status == 1)
        #expect(server.requestCount("/good.png") == 1)
        #expect(try manifestRecords(in: folder) == firstManifest)
        #expect(second.outputLines.contains { $0.contains("\"errorKind\":\"already-done\"") })
        // The summary says why nothing was done, and what would do it.
        #expect(
            second.errors.contains("skipped: already-done 1 (stored by an earlier run; --refresh checks them"),
            "\(second.errors)")
        #expect(second.outputLines.last?.contains("\"skippedByReason\":{\"already-done\":1}") == true)
    }

    @Test("--rate takes N, N/s, N/min and HOST=N/s; anything else is a usage error")
    func rateOption() throws {
        let path = try list([server.url("/good.png").absoluteString])
        for rate in ["0", "-1", "fast", "5/h", "=5", "a/b=5"] {
            #expect(try run([path, "--out", folder.path("bad"), "--rate", rate]).status == 2, "\(rate)")
        }
        let paced = try run([
            path, "--out", folder.path("out"), "--rate", "20/s", "--rate", "127.0.0.1=600/min", "--rate", "3",
        ])
        #expect(paced.status == 0, "\(paced.errors)")
    }

    @Test("--retry-failed fetches only the failures again")
    func retryFailed() throws {
        server.route("/later.png", .failFirst(2, status: 404, then: .respond(body: png)))
        let path = try list([server.url("/good.png").absoluteString, server.url("/later.png").absoluteString])
        #expect(try run([path, "--out", folder.path("out")]).status == 1)
        let skipping = try run([path, "--out", folder.path("out")])
        #expect(skipping.status == 0)
        #expect(skipping.errors.contains("already-failed 1"), "\(skipping.errors)")
        #expect(skipping.errors.contains("--retry-failed tries earlier failures again"), "\(skipping.errors)")
        #expect(server.requestCount("/later.png") == 1)
        #expect(try run([path, "--out", folder.path("out"), "--retry-failed"]).status == 1)
        #expect(try run([path, "--out", folder.path("out"), "--retry-failed"]).status == 0)
        #expect(server.requestCount("/later.png") == 3)
        #expect(server.requestCount("/good.png") == 1)
    }

    @Test("--json prints started and finished events and a summary, all valid JSON")
    func jsonEvents() throws {
        let path = try list([server.url("/good.png").absoluteString, server.url("/missing.png").absoluteString])
        let result = try run([path, "--out", folder.path("out"), "--json"])
        #expect(result.status == 1)
        let objects = try result.outputLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.count == objects.count)
        #expect(events.filter { $0 == "started" }.count == 2)
        #expect(events.filter { $0 == "finished" }.count == 2)
        #expect(events.last == "summary")
        #expect(objects.last?["ok"] as? Int == 1)
        #expect(objects.last?["failed"] as? Int == 1)
        #expect(objects.last?["exitStatus"] as? Int == 1)
    }

    @Test("--dry-run shows the plan and downloads nothing")
    func dryRun() throws {
        let path = try list(["url,name", "\(server.url("/good.png").absoluteString),First"], name: "list.csv")
        let result = try run([path, "--dry-run"])
        #expect(result.status == 0)
        #expect(result.outputText.contains("1 item, 0 invalid lines"))
        #expect(result.outputText.contains("First"))
        #expect(result.outputText.contains("nothing downloaded"))
        #expect(server.requestCount("/good.png") == 0)
    }

    @Test("--shard splits a list: every URL in exactly one shard")
    func shards() throws {
        for index in 0..<12 { server.route("/s\(index).png", .respond(body: png)) }
        let path = try list((0..<12).map { server.url("/s\($0).png").absoluteString })
        var stored: [String] = []
        for shard in 0..<3 {
            let result = try run([path, "--out", folder.path("out"), "--shard", "\(shard)/3"])
            #expect(result.status == 0)
            stored += result.outputLines
        }
        #expect(stored.count == 12)
        #expect(Set(stored).count == 12)
        #expect((0..<12).allSatisfy { server.requestCount("/s\($0).png") == 1 })
    }

    @Test("A single URL argument works")
    func singleURL() throws {
        let result = try run([server.url("/good.png").absoluteString, "--out", folder.path("out")])
        #expect(result.status == 0)
        #expect(result.outputLines == [folder.path("out") + "/good.png"])
    }

    @Test(
        "Usage errors exit 2 and download nothing",
        arguments: [
            (["list.txt"], "option '--out' is required"),
            (["list.txt", "--out", "d", "--shard", "2/2"], "invalid value '2/2' for '--shard'"),
            (["list.txt", "--out", "d", "--timeout", "0"], "invalid value '0' for '--timeout'"),
            (["list.txt", "--out", "d", "--header", "NoColon"], "invalid value 'NoColon' for '--header'"),
            (["list.txt", "--out", "d", "--convert", "gif"], "invalid value 'gif' for '--convert'"),
            (["list.txt", "--out", "d", "--list-format", "xml"], "invalid value 'xml' for '--list-format'"),
            (["list.txt", "--out", "d", "--transport", "ftp"], "invalid value 'ftp' for '--transport'"),
            (["--out", "d"], "missing argument LIST"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try pixpipe.run(["fetch"] + arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains(message))
    }
}
