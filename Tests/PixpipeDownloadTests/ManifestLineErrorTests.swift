import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// The list's unusable lines go into the manifest through the downloader's one writer.
@Suite("Manifest: the list's bad lines", .serialized)
struct ManifestLineErrorTests {
    /// The manifest's keys in the order `jsonLine` writes them (a record leaves out the absent ones).
    static let keyOrder = [
        "url", "name", "status", "httpStatus", "bytes", "sha256", "width", "height", "format", "attempts",
        "elapsed", "error", "errorKind",
    ]

    /// The top-level keys of a manifest line, in the order they appear.
    private static func keys(of line: String) -> [String] {
        keyOrder.compactMap { key in line.range(of: "\"\(key)\":").map { (key, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    private static let list = URLList(
        bytes: Array("https://example.invalid/a.png\nnot a url\nftp://example.com/x.png\n".utf8), format: .lines)

    @Test("Bad lines and items are written by one writer: every line has the same key order")
    func oneKeyOrder() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        server.route("/good.png", .respond(body: Bodies.png()))
        server.route("/missing.png", .respond(status: 404, body: Array("no".utf8)))
        let items = [DownloadItem(url: server.url("/good.png")), DownloadItem(url: server.url("/missing.png"))]
        var options = testOptions(folder)
        options.retryPolicy.maxAttempts = 1
        for await _ in Downloader(options: options).run(items, invalidLines: Self.list.lineErrors) {}
        let text = try String(contentsOf: folder.url.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        for line in lines {
            let keys = Self.keys(of: line)
            #expect(keys == Self.keyOrder.filter { keys.contains($0) }, "\(line)")
        }
        let records = folder.manifest()
        #expect(records.prefix(2).map(\.url) == ["not a url", "ftp://example.com/x.png"])
        #expect(records.prefix(2).map(\.errorKind) == ["invalid-url", "unsupported-scheme"])
        #expect(records.prefix(2).allSatisfy { $0.status == .failed && $0.attempts == 0 })
        #expect(Set(records.dropFirst(2).map(\.status)) == [.ok, .failed])
    }

    @Test("A rerun does not record a bad line again, whatever the resume mode; only shard 0 records them")
    func recordedOnce() async throws {
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        for resume in [ResumeMode.skipCompleted, .retryFailed, .redoAll] {
            options.resume = resume
            _ = await Downloader(options: options).run([DownloadItem](), invalidLines: Self.list.lineErrors)
                .reduce(0) { count, _ in count + 1 }
        }
        #expect(folder.manifest().map(\.url) == ["not a url", "ftp://example.com/x.png"])
        let other = TemporaryFolder()
        var shard1 = testOptions(other)
        shard1.shard = try Shard(index: 1, count: 2)
        for await _ in Downloader(options: shard1).run([DownloadItem](), invalidLines: Self.list.lineErrors) {}
        #expect(other.manifest().isEmpty)
    }
}
