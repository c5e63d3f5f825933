import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

#if canImport(Glibc)
    import Glibc
#endif

/// A manifest read back from a folder others may have written: its names, its line lengths and its URLs.
@Suite("Untrusted manifests: stored names, bounded lines, unforgeable URL identity", .serialized)
struct UntrustedManifestTests {
    @Test("A stored name is one this program writes: no path, no hidden or dot name, no control characters")
    func storedNameRules() {
        let accepted = [
            "photo.png", "comic-1.png", "IMG_0001.jpg", "\u{E9}t\u{E9} 2024.webp", "a b.gif", "1-photo.original.png",
            String(repeating: "a", count: 64) + ".png", "x~y_z.avif", String(repeating: "b", count: 255),
        ]
        for name in accepted { #expect(StoredName.isValid(name), "\(name)") }
        let refused = [
            "", ".", "..", ".hidden.png", "../victim/important.txt", "/etc/passwd", "a/b.png", "a\\b.png",
            "a..b.png", "sub/../x.png", "x\u{0}y.png", "x\u{1B}[2J.png", "x\ny.png", "x\u{7F}.png", "x\u{85}.png",
            "cod\u{202E}gnp.exe", "a\u{2028}b.png", "a\u{2066}b.png", ".photo.png.part-1234",
            String(repeating: "c", count: 256),
        ]
        for name in refused { #expect(!StoredName.isValid(name), "\(name.debugDescription)") }
        // Bytes that are not UTF-8 are no name either.
        #expect(!StoredName.isValid([0x61, 0xFF, 0x2E, 0x70]))
    }

    @Test("Every name the writer makes from hostile URLs and templates passes the stored-name rules")
    func writtenNamesPass() {
        let stems = [
            "../../etc/passwd", "..", ".hidden", "a\u{1B}]0;x\u{7}b", "name/with/slashes", "   ", "\u{E9}\u{301}",
            String(repeating: "\u{1F600}", count: 100), "x..y", "trailing.", "back\\slash",
        ]
        let templates = [FileNamePattern.defaultTemplate, "{index}-{name}", "{host}/{name}", "{sha256}", "../{name}"]
        for template in templates {
            for (index, raw) in stems.enumerated() {
                let stem = FileNameSanitizer.sanitize(raw)
                var pattern = FileNamePattern(template: template, index: index, name: stem, host: "127.0.0.1")
                if pattern.needsFallback {
                    pattern = FileNamePattern(template: template, index: index, name: "file", host: "127.0.0.1")
                }
                let name = pattern.suffixed(2).render(sha256: String(repeating: "0", count: 64), fileExtension: "png")
                #expect(StoredName.isValid(name), "\(template) \(raw.debugDescription) -> \(name.debugDescription)")
            }
        }
    }

    @Test("A stored file is opened only inside the folder and never through a link; only regular files are removed")
    func resolution() throws {
        let folder = TemporaryFolder()
        let outside = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: outside.url.appendingPathComponent("secret.txt"))
        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("mine.png"))
        #expect(
            symlink(
                outside.url.appendingPathComponent("secret.txt").path,
                folder.url.appendingPathComponent("link.png").path)
                == 0)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("sub.png"), withIntermediateDirectories: true)
        let directory = openFolder(folder.url.path)
        defer { close(directory) }

        let mine = StoredName.open(Array("mine.png".utf8), in: directory)
        #expect(mine >= 0)
        close(mine)
        #expect(StoredName.open(Array("link.png".utf8), in: directory) == -1)
        #expect(errno == ELOOP || errno == EXDEV)
        let escape = "../" + outside.url.lastPathComponent + "/secret.txt"
        #expect(StoredName.open(Array(escape.utf8), in: directory) == -1 && errno == EINVAL)

        #expect(!StoredName.remove("link.png", in: directory))
        #expect(!StoredName.remove("sub.png", in: directory))
        #expect(!StoredName.remove(escape, in: directory))
        #expect(!StoredName.remove(outside.url.appendingPathComponent("secret.txt").path, in: directory))
        #expect(StoredName.remove("mine.png", in: directory))
        #expect(StoredName.remove("mine.png", in: directory), "already gone counts as removed")
        #expect(outside.contents("secret.txt") == Array("secret".utf8))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("sub.png").path))
        var status = stat()
        #expect(lstat(folder.url.appendingPathComponent("link.png").path, &status) == 0)
    }

    /// The lines `forEachLine` reads of `text` with a limit of `limit` bytes, and the issues it reports.
    func read(_ text: String, limit: Int, lanes: Int = 1) throws -> (lines: [String], issues: [String], length: Int?) {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("manifest.jsonl")
        try Data(text.utf8).write(to: path)
        let descriptor = open(path.path, O_RDONLY)
        defer { close(descriptor) }
        var lines: [String] = []
        var issues: [String] = []
        let length = ManifestReader.forEachLine(
            in: descriptor, lanes: lanes, maxLineBytes: limit, prepare: { $0.url },
            skipped: { issues.append("\($0.line) \($0.reason.shortName)") }
        ) { url, number in lines.append("\(number) \(url)") }
        return (lines, issues, length)
    }

    @Test("A line longer than the bound is reported by number and skipped; the lines after it still read")
    func boundedLines() throws {
        func line(_ url: String) -> String {
            String(decoding: ManifestRecord(url: url, status: .failed, attempts: 1).jsonLine, as: UTF8.self)
        }
        let long = line("http://e.com/" + String(repeating: "x", count: 500))
        let text = line("http://e.com/1") + long + long + "not json\n" + "\n" + line("http://e.com/2")
        for limit in [200, 256, 300] {
            let result = try read(text, limit: limit)
            #expect(result.lines == ["1 http://e.com/1", "6 http://e.com/2"], "limit \(limit)")
            #expect(
                result.issues == [
                    "2 manifest-line-too-long", "3 manifest-line-too-long", "4 unreadable-manifest-line",
                ],
                "limit \(limit)")
            #expect(result.length == text.utf8.count)
        }
        // A line of exactly the bound is read; a torn last line, long or short, is left out of the length.
        let exact = line("http://e.com/" + String(repeating: "y", count: 100))
        let bound = exact.utf8.count - 1
        #expect(try read(exact, limit: bound).lines.count == 1)
        #expect(try read(exact, limit: bound - 1).issues == ["1 manifest-line-too-long"])
        let torn = line("http://e.com/1") + String(long.dropLast())
        let tornResult = try read(torn, limit: 200)
        #expect(tornResult.lines == ["1 http://e.com/1"] && tornResult.issues.isEmpty)
        #expect(tornResult.length == line("http://e.com/1").utf8.count)
    }

    @Test("A manifest line naming a file outside the folder is ignored and reported; earlier sound lines stand")
    func unsafeNameLines() async throws {
        let server = try TestHTTPServer()
        server.route("/a.png", .respond(body: Bodies.png(seed: 1)))
        server.route("/b.png", .respond(body: Bodies.png(seed: 2)))
        let items = [DownloadItem(url: server.url("/a.png")), DownloadItem(url: server.url("/b.png"))]
        let folder = TemporaryFolder()
        #expect(await Downloader(options: testOptions(folder)).download(items).ok == 2)
        // A forged later line for a.png pointing out of the folder, with a.png's own size and hash.
        let first = try #require(folder.manifest().first { $0.url.hasSuffix("/a.png") })
        var forged = first
        forged.name = "../a.png"
        let handle = try FileHandle(forWritingTo: folder.url.appendingPathComponent("manifest.jsonl"))
        try handle.seekToEnd()
        try handle.write(contentsOf: forged.jsonLine)
        try handle.close()

        let summary = await Downloader(options: testOptions(folder)).download(items)
        #expect(summary.skipped == 2 && summary.ok == 0, "the sound line before the forged one still counts")
        #expect(summary.unusableManifestLines == 1)
        #expect(summary.manifestIssues == [ManifestLineIssue(line: 3, reason: .unsafeName)])
    }

    @Test("Two URLs that share the 64 bits a list's author can forge are neither duplicates nor share a record")
    func forgedFingerprint() async throws {
        let server = try TestHTTPServer()
        server.route("/one.png", .respond(body: Bodies.png(seed: 1)))
        server.route("/two.png", .respond(body: Bodies.png(seed: 2)))
        let items = [DownloadItem(url: server.url("/one.png")), DownloadItem(url: server.url("/two.png"))]
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        // Every URL gets the same first half: what a birthday search of 2^32 hashes finds for 64-bit identities.
        options.urlFingerprint = { URLFingerprint(shardValue: 42, low: URLFingerprint(absoluteString: $0).low) }
        let first = await Downloader(options: options).download(items)
        #expect(first.ok == 2 && first.skipped == 0)
        #expect(folder.contents("one.png") == Bodies.png(seed: 1) && folder.contents("two.png") == Bodies.png(seed: 2))

        // Each reads its own record: the changed file is fetched again, the other skipped.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("two.png"))
        let second = await Downloader(options: options).download(items)
        #expect(second.ok == 1 && second.skipped == 1)
        #expect(server.requestCount("/one.png") == 1 && server.requestCount("/two.png") == 2)

        // The index itself keys by the whole 128 bits.
        var index = PriorIndex()
        let okLine = try #require(
            Data(ManifestRecord(url: "u1", name: "a.png", status: .ok, bytes: 1).jsonLine.dropLast()).withUnsafeBytes {
                ManifestLine(bytes: $0)
            })
        var failedLine = okLine
        failedLine.status = .failed
        index.insert(okLine, fingerprint: URLFingerprint(shardValue: 7, low: 1))
        index.insert(failedLine, fingerprint: URLFingerprint(shardValue: 7, low: 2))
        index.insert(failedLine, fingerprint: URLFingerprint(shardValue: 8, low: 1))
        #expect(index.count == 3)
        #expect(index[URLFingerprint(shardValue: 7, low: 1)]?.outcome == .ok)
        #expect(index[URLFingerprint(shardValue: 7, low: 2)]?.outcome == .failedItem)
        #expect(index[URLFingerprint(shardValue: 8, low: 1)]?.outcome == .failedItem)
        #expect(index[URLFingerprint(shardValue: 7, low: 3)] == nil)
        // A later line replaces the record of its own URL only, whichever half it shares with another.
        index.insert(okLine, fingerprint: URLFingerprint(shardValue: 7, low: 2))
        index.insert(failedLine, fingerprint: URLFingerprint(shardValue: 7, low: 1))
        #expect(index.count == 3)
        #expect(index[URLFingerprint(shardValue: 7, low: 2)]?.outcome == .ok)
        #expect(index[URLFingerprint(shardValue: 7, low: 1)]?.outcome == .failedItem)
        #expect(index[URLFingerprint(shardValue: 8, low: 1)]?.outcome == .failedItem)
    }
}
