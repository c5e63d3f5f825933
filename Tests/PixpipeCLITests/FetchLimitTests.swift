import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The limits of `pixpipe fetch` beyond bytes and the attempt's timeout, each with a default and an option:
/// `--max-pixels`, `--max-redirects` and `--deadline`. An item over a limit fails alone, with its kind in
/// the manifest, and the batch exits 1.
@Suite("pixpipe fetch: pixel, redirect and deadline limits", .serialized)
struct FetchLimitTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        // 16 x 8: 128 pixels.
        server.route("/image.png", .respond(headers: ["Content-Type": "image/png"], body: Array(try TestImages.png())))
        server.route("/hop2", .redirect(to: server.url("/image.png").absoluteString, status: 302))
        server.route("/hop1", .redirect(to: server.url("/hop2").absoluteString, status: 301))
    }

    /// Runs `fetch` of `paths` on the test server into a fresh folder, with `options`; the run's result and
    /// the manifest's error kind (or status) of each URL.
    func fetch(
        _ paths: [String], _ options: [String]
    ) throws -> (result: PixpipeExecutable.Result, kinds: [String]) {
        let out = folder.path("out-\(UUID().uuidString)")
        let lines = paths.map { server.url($0).absoluteString }
        let list = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "\(UUID().uuidString).txt")
        let result = try pixpipe.run(["fetch", list, "--out", out, "--retries", "0"] + options)
        let text = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
        let records = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        let kinds = lines.map { url in
            records.first { $0.url == url }.map { $0.errorKind ?? $0.status.rawValue } ?? "missing"
        }
        return (result, kinds)
    }

    @Test("--max-pixels refuses an image over the limit, verified or not; at the limit and with 0 it is stored")
    func maxPixels() throws {
        let over = try fetch(["/image.png"], ["--max-pixels", "127"])
        #expect(over.result.status == 1)
        #expect(over.kinds == ["too-large-image"])
        // The header alone gives the size: the limit holds without a decode too.
        let headerOnly = try fetch(["/image.png"], ["--max-pixels", "127", "--no-verify"])
        #expect(headerOnly.kinds == ["too-large-image"])
        let atLimit = try fetch(["/image.png"], ["--max-pixels", "128"])
        #expect(atLimit.result.status == 0)
        #expect(atLimit.kinds == ["ok"])
        #expect(try fetch(["/image.png"], ["--max-pixels", "0"]).kinds == ["ok"])
        // A thumbnail has looser limits of its own (it decodes at a reduced size); the option bounds its source.
        #expect(try fetch(["/image.png"], ["--max-pixels", "127", "--thumbnail", "4"]).kinds == ["too-large-source"])
        #expect(try fetch(["/image.png"], ["--max-pixels", "128", "--thumbnail", "4"]).kinds == ["ok"])
    }

    @Test(
        "--max-frames refuses a four-frame GIF at 3 and stores it at 4; a still thumbnail reads one frame",
        .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
    func maxFrames() throws {
        let gif = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("gif/animated_loop_variable_delay.gif")))
        server.route("/animation.gif", .respond(headers: ["Content-Type": "image/gif"], body: Array(gif)))
        let refused = try fetch(["/animation.gif"], ["--max-frames", "3"])
        #expect(refused.result.status == 1)
        #expect(refused.kinds == ["too-many-frames"])
        // A still thumbnail reads the first frame alone: the frame count costs it nothing, and is not refused.
        #expect(try fetch(["/animation.gif"], ["--max-frames", "3", "--thumbnail", "8"]).kinds == ["ok"])
        #expect(try fetch(["/animation.gif"], ["--max-frames", "4"]).kinds == ["ok"])
        #expect(try fetch(["/animation.gif"], ["--max-frames", "0"]).kinds == ["ok"])
    }

    @Test(
        "--max-redirects: two hops need 2; 0 follows none; the default follows both (either transport)",
        arguments: ["curl", "urlsession"])
    func maxRedirects(transport: String) throws {
        let short = try fetch(["/hop1", "/hop2"], ["--max-redirects", "1", "--transport", transport])
        #expect(short.result.status == 1)
        #expect(short.kinds == ["too-many-redirects", "ok"])
        #expect(try fetch(["/hop1"], ["--max-redirects", "2", "--transport", transport]).kinds == ["ok"])
        #expect(
            try fetch(["/hop2"], ["--max-redirects", "0", "--transport", transport]).kinds == ["too-many-redirects"])
        let byDefault = try fetch(["/hop1"], ["--transport", transport])
        #expect(byDefault.result.status == 0)
        #expect(byDefault.kinds == ["ok"])
    }

    @Test("--deadline ends an item whose server stalls, well before the attempt's timeout; 0 means none")
    func deadline() throws {
        server.route("/stalled.png", .delayHeaders(seconds: 8, then: .respond(body: Array(try TestImages.png()))))
        let started = ContinuousClock.now
        let stalled = try fetch(["/stalled.png", "/image.png"], ["--deadline", "0.5", "--timeout", "30"])
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(stalled.result.status == 1)
        #expect(["timeout", "deadline-exceeded"].contains(stalled.kinds[0]), "\(stalled.kinds)")
        #expect(stalled.kinds[1] == "ok")
        #expect(try fetch(["/image.png"], ["--deadline", "0"]).kinds == ["ok"])
    }

    @Test("Limits out of range are usage errors: exit 2, nothing fetched")
    func usageErrors() throws {
        for (option, value) in [("--max-pixels", "-1"), ("--max-redirects", "101"), ("--deadline", "-2")] {
            let result = try pixpipe.run([
                "fetch", server.url("/image.png").absoluteString, "--out", folder.path("u"), option, value,
            ])
            #expect(result.status == 2, "\(option) \(value)")
            #expect(result.errors.contains("invalid value '\(value)' for '\(option)'"))
        }
        #expect(server.requestCount("/image.png") == 0)
    }
}
