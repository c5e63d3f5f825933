import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `pixpipe fetch` holds a bounded window of items, so its peak memory must not grow with the list.
///
/// Each test runs the executable twice as a child process, on a short and a long list, and compares the
/// children's own peak RSS (see ``ChildProcessPeak``): the long run may cost at most 10 MB more than the
/// short one (measured: under 3 MB), a loose bound that a per-item leak of a few KB or an eagerly read
/// list would still break.
@Suite(
    "pixpipe fetch memory", .serialized,
    .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct FetchMemoryTests {
    let pixpipe: String
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    /// The few tiny images every line points at.
    let paths = ["/a.png", "/b.png", "/c.png"]

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built).url.path
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        for (number, path) in paths.enumerated() {
            let png = try TestImages.png(TestImages.gradient(width: 8 + number, height: 8))
            server.route(path, .respond(headers: ["Content-Type": "image/png"], body: Array(png)))
        }
    }

    /// Writes a list of `count` URLs over the tiny images, each with its own query string so none is
    /// coalesced with another, and returns its path.
    func writeList(count: Int) throws -> String {
        var text = "# \(count) distinct URLs\n"
        text.reserveCapacity(count * 48)
        for line in 0..<count {
            text += server.url(paths[line % paths.count] + "?line=\(line)").absoluteString + "\n"
        }
        return try folder.write(Data(text.utf8), to: "list-\(count).txt")
    }

    /// Downloads `count` URLs into a fresh folder and returns the measured run.
    func download(count: Int) throws -> ChildProcessPeak.Result {
        let out = folder.path("out-\(count)")
        let run = ChildProcessPeak.run(
            pixpipe,
            [
                "fetch", try writeList(count: count), "--out", out, "--concurrency", "32", "--per-host", "32",
                "--timeout", "60",
            ])
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.count == count + 1, "\(count) files and the manifest")
        try? FileManager.default.removeItem(atPath: out)
        return run
    }

    /// 3,000 real downloads cost no more than 500 (loosely). Every URL is distinct and stored, so the
    /// whole pipeline runs per item: slots, transfer, decode, atomic write, manifest line, name claim (all
    /// named `a.png`, `a-2.png`...). 3,000 rather than more keeps the test to seconds: a debug build on a
    /// busy machine stores a few hundred items a second.
    @Test func peakMemoryOfRealDownloadsDoesNotGrowWithTheList() throws {
        let short = try download(count: 500)
        let long = try download(count: 3000)
        #expect(short.status == 0 && long.status == 0)
        let message = "peak RSS \(short.peakMiB) MiB for 500 URLs, \(long.peakMiB) MiB for 3,000"
        #expect(short.peakBytes > 0, "\(message)")
        #expect(
            long.peakBytes <= short.peakBytes + 10_000_000 + ChildProcessUsage.sanitizerGrowthAllowance, "\(message)")
    }

    /// A 100,000-line list is read lazily: planning it (`--dry-run`, which scans and counts every line)
    /// costs no more memory than planning 1,000 lines.
    @Test func peakMemoryOfPlanningDoesNotGrowWithTheList() throws {
        let short = ChildProcessPeak.run(pixpipe, ["fetch", try writeList(count: 1000), "--dry-run"])
        let long = ChildProcessPeak.run(pixpipe, ["fetch", try writeList(count: 100_000), "--dry-run"])
        #expect(short.status == 0 && long.status == 0)
        let message = "peak RSS \(short.peakMiB) MiB for 1,000 lines, \(long.peakMiB) MiB for 100,000"
        #expect(short.peakBytes > 0, "\(message)")
        #expect(
            long.peakBytes <= short.peakBytes + 10_000_000 + ChildProcessUsage.sanitizerGrowthAllowance, "\(message)")
    }
}
