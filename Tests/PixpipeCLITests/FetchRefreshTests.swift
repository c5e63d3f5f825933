import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `pixpipe fetch --refresh` and `--prune`, run as a process against a server that answers conditionally.
@Suite("pixpipe fetch --refresh: a daily re-run of a comic archive", .serialized)
struct FetchRefreshTests {
    static let lastModified = "Sat, 01 Jun 2024 12:00:00 GMT"
    static let comics = 6

    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    let listPath: String

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        var lines = ["url,name"]
        for number in 1...Self.comics {
            try Self.publish(number, version: 1, on: server)
            lines.append("\(server.url("/comics/\(number).png").absoluteString),comic-\(number)")
        }
        listPath = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "comics.csv")
    }

    /// Serves comic `number` in `version` (its pixels and its ETag change with it).
    func publish(_ number: Int, version: Int) throws {
        try Self.publish(number, version: version, on: server)
    }

    /// Serves comic `number` in `version` on `server`.
    static func publish(_ number: Int, version: Int, on server: TestHTTPServer) throws {
        var panel = Image(width: 24, height: 16, pixelFormat: .rgb8)
        for y in 0..<16 {
            for x in 0..<24 {
                for channel in 0..<3 { panel[x: x, y: y, channel: channel] = (x * 9 + y * number + version * 71) % 256 }
            }
        }
        server.route(
            "/comics/\(number).png",
            .conditional(
                body: Array(try panel.encoded(as: .png)), etag: "\"c\(number)-v\(version)\"",
                lastModified: Self.lastModified))
    }

    func fetch(_ extra: [String]) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["fetch", listPath, "--out", folder.path("out"), "--retries", "1", "--timeout", "5"] + extra)
    }

    /// Every manifest line, each checked to read back through `JSONDecoder` and the resume's hand parser alike.
    func manifest() throws -> [ManifestRecord] {
        let data = try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/manifest.jsonl")))
        return try data.split(separator: UInt8(ascii: "\n")).map { line in
            let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line))
            #expect(Data(line).withUnsafeBytes { ManifestLine(bytes: $0) } == ManifestLine(record))
            return record
        }
    }

    /// The last manifest line of each comic, by number.
    func latest() throws -> [Int: ManifestRecord] {
        var byNumber: [Int: ManifestRecord] = [:]
        for record in try manifest() {
            if let number = Int(URL(string: record.url)?.deletingPathExtension().lastPathComponent ?? "") {
                byNumber[number] = record
            }
        }
        return byNumber
    }

    func modificationDate(_ name: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: folder.path("out/\(name)"))[.modificationDate] as? Date
    }

    /// The summary event of a `--json` run.
    func summary(_ result: PixpipeExecutable.Result) throws -> [String: Any] {
        let last = try #require(result.outputLines.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "summary")
        return object
    }

    @Test("Refresh of an unchanged archive: one conditional request per comic, every 304, no file touched")
    func unchangedArchive() throws {
        let first = try fetch([])
        #expect(first.status == 0 && first.outputLines.count == Self.comics)
        for (number, record) in try latest() {
            #expect(record.status == .ok && record.etag == "\"c\(number)-v1\"")
            #expect(record.lastModified == Self.lastModified)
        }
        let past = Date(timeIntervalSince1970: 1_500_000_000)
        for number in 1...Self.comics {
            try FileManager.default.setAttributes(
                [.modificationDate: past], ofItemAtPath: folder.path("out/comic-\(number).png"))
        }
        let bytesBefore = try (1...Self.comics).map {
            try WholeFile.data(at: folder.url.appendingPathComponent("out/comic-\($0).png"))
        }

        let refresh = try fetch(["--refresh"])
        #expect(refresh.status == 0, "\(refresh.errors)")
        #expect(refresh.outputLines.isEmpty)
        #expect(refresh.errors.contains("refresh: \(Self.comics) unchanged, 0 updated, 0 gone"))
        for number in 1...Self.comics {
            let requests = server.requests("/comics/\(number).png")
            #expect(requests.count == 2)
            #expect(requests.last?.header("If-None-Match") == "\"c\(number)-v1\"")
            #expect(try modificationDate("comic-\(number).png") == past)
            #expect(
                try WholeFile.data(at: folder.url.appendingPathComponent("out/comic-\(number).png"))
                    == bytesBefore[number - 1])
            #expect(try latest()[number]?.status == .unchanged)
        }
        #expect(server.completedResponses("/comics/1.png") == 2)
    }

    @Test("A comic changed upstream is replaced with its new hash; --json counts it as updated")
    func changedComic() throws {
        #expect(try fetch([]).status == 0)
        let old = try #require(try latest()[3])
        try publish(3, version: 2)
        let refresh = try fetch(["--refresh", "--json"])
        #expect(refresh.status == 0)
        let counts = try summary(refresh)
        #expect(counts["unchanged"] as? Int == Self.comics - 1)
        #expect(counts["updated"] as? Int == 1 && counts["ok"] as? Int == 1 && counts["gone"] as? Int == 0)
        let new = try #require(try latest()[3])
        #expect(new.status == .ok && new.name == old.name && new.etag == "\"c3-v2\"")
        #expect(new.sha256 != old.sha256)
        let stored = try WholeFile.data(at: folder.url.appendingPathComponent("out/comic-3.png"))
        #expect(SHA256.hash(stored).hexString == new.sha256)
    }

    @Test("With --thumbnail the processed file is replaced when the comic changes")
    func changedThumbnail() throws {
        #expect(try fetch(["--thumbnail", "8"]).status == 0)
        let before = try WholeFile.data(at: folder.url.appendingPathComponent("out/comic-2.jpg"))
        try publish(2, version: 5)
        let refresh = try fetch(["--thumbnail", "8", "--refresh"])
        #expect(refresh.status == 0)
        #expect(refresh.outputLines == [folder.path("out") + "/comic-2.jpg"])
        let after = try WholeFile.data(at: folder.url.appendingPathComponent("out/comic-2.jpg"))
        #expect(after != before)
        #expect(SHA256.hash(after).hexString == (try latest()[2]?.sha256))
        #expect(try Image(contentsOfFile: folder.path("out/comic-2.jpg")).width == 8)
    }

    @Test("404 marks a comic gone and keeps its file (exit 1); with --prune the file goes (exit 0)")
    func goneAndPrune() throws {
        #expect(try fetch([]).status == 0)
        server.removeRoute("/comics/4.png")
        let kept = try fetch(["--refresh"])
        #expect(kept.status == 1)
        #expect(kept.errors.contains("gone from the server (HTTP 404); the stored file is kept"))
        #expect(kept.errors.contains("refresh: \(Self.comics - 1) unchanged, 0 updated, 1 gone (files kept)"))
        #expect(try latest()[4]?.status == .gone && (try latest()[4]?.name) == "comic-4.png")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/comic-4.png")))

        // The next refresh does not ask about it again; a pruning refresh deletes the file the manifest
        // records gone (without asking again) along with the one newly gone.
        let again = try fetch(["--refresh"])
        #expect(again.status == 0 && server.requestCount("/comics/4.png") == 2)
        server.route("/comics/5.png", .text("gone", status: 410))
        let pruned = try fetch(["--refresh", "--prune", "--json"])
        #expect(pruned.status == 0, "\(pruned.errors)")
        #expect(try summary(pruned)["gone"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/comic-5.png")))
        #expect(try latest()[5]?.status == .gone && (try latest()[5]?.name) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/comic-4.png")))
        #expect(try latest()[4]?.status == .gone && (try latest()[4]?.name) == nil)
        #expect(server.requestCount("/comics/4.png") == 2)
    }

    @Test("--refresh --prune deletes a file an earlier --refresh found gone and kept")
    func pruneAfterRefreshFoundGone() throws {
        #expect(try fetch([]).status == 0)
        server.removeRoute("/comics/2.png")
        let kept = try fetch(["--refresh"])
        #expect(kept.errors.contains("refresh: \(Self.comics - 1) unchanged, 0 updated, 1 gone (files kept)"))
        #expect(FileManager.default.fileExists(atPath: folder.path("out/comic-2.png")))

        let pruned = try fetch(["--refresh", "--prune"])
        #expect(pruned.status == 0, "\(pruned.errors)")
        #expect(pruned.errors.contains("refresh: \(Self.comics - 1) unchanged, 0 updated, 1 gone (files deleted)"))
        #expect(pruned.errors.contains("the stored file was deleted"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/comic-2.png")))
        #expect(try latest()[2]?.status == .gone && (try latest()[2]?.name) == nil)
        // Nothing left to prune: the next pruning refresh reports nothing gone and leaves the others alone.
        let third = try fetch(["--refresh", "--prune"])
        #expect(third.status == 0, "\(third.errors)")
        #expect(third.errors.contains("refresh: \(Self.comics - 1) unchanged, 0 updated, 0 gone"))
        #expect(FileManager.default.fileExists(atPath: folder.path("out/comic-1.png")))
    }

    @Test("A file replaced since its item was recorded gone is kept by --prune")
    func pruneKeepsChangedFile() throws {
        #expect(try fetch([]).status == 0)
        server.removeRoute("/comics/3.png")
        #expect(try fetch(["--refresh"]).status == 1)
        try Data("mine now".utf8).write(to: URL(fileURLWithPath: folder.path("out/comic-3.png")))
        let pruned = try fetch(["--refresh", "--prune"])
        #expect(pruned.errors.contains("comic-3.png changed since and is kept"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("out/comic-3.png"))) == Data("mine now".utf8))
    }

    @Test("A failed revalidation keeps the file and its state: a plain run skips it, the next refresh asks again")
    func failureKeepsState() throws {
        #expect(try fetch([]).status == 0)
        server.route("/comics/6.png", .text("busy", status: 500))
        let failed = try fetch(["--refresh"])
        #expect(failed.status == 1)
        #expect(try latest()[6]?.status == .failed && (try latest()[6]?.name) == "comic-6.png")
        let plain = try fetch(["--json"])
        #expect(plain.status == 0)
        #expect(try summary(plain)["skipped"] as? Int == Self.comics)
        try publish(6, version: 1)
        let refresh = try fetch(["--refresh"])
        #expect(refresh.status == 0)
        #expect(server.requests("/comics/6.png").last?.header("If-None-Match") == "\"c6-v1\"")
        #expect(try latest()[6]?.status == .unchanged)
    }

    @Test("--prune without --refresh is a usage error; --help documents both")
    func usage() throws {
        let result = try pixpipe.run(["fetch", "list.txt", "--out", "d", "--prune"])
        #expect(result.status == 2)
        #expect(result.errors.contains("option '--refresh' is required with --prune"))
        let help = try pixpipe.run(["fetch", "--help"])
        #expect(help.status == 0)
        let text = help.outputText + help.errors
        #expect(text.contains("--refresh") && text.contains("--prune") && text.contains("If-None-Match"))
    }
}
