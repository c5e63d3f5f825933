import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

#if canImport(Glibc)
    import Glibc
#endif

/// `pixpipe fetch` into a folder someone else wrote: the manifest's names, the manifest itself and its lines
/// are untrusted. Run as a process against the in-process server; `victim/important.txt` sits beside `out`.
@Suite("pixpipe fetch: a folder someone else touched", .serialized)
struct FetchUntrustedFolderTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    let listPath: String
    let victim: Data

    /// The URL whose forged record names the outside file.
    var evilURL: String { server.url("/img/evil.png").absoluteString }

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        server.route("/img/evil.png", .respond(body: Array(try TestImages.png())))
        server.route("/img/plain.png", .respond(body: Array(try TestImages.png(TestImages.gradient(width: 9)))))
        let list = "\(server.url("/img/evil.png").absoluteString)\n\(server.url("/img/plain.png").absoluteString)\n"
        listPath = try folder.write(Data(list.utf8), to: "list.txt")
        try FileManager.default.createDirectory(
            atPath: folder.path("victim"), withIntermediateDirectories: true)
        victim = Data("the only copy of something that matters\n".utf8)
        _ = try folder.write(victim, to: "victim/important.txt")
    }

    func fetch(_ extra: [String]) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["fetch", listPath, "--out", folder.path("out"), "--retries", "1", "--timeout", "5"] + extra)
    }

    /// A fresh `out` whose manifest holds one `ok` line for the evil URL naming `name`, with the victim's
    /// real size and SHA-256 (what an earlier run would have recorded had it stored those bytes there).
    func forge(name: String) throws {
        try? FileManager.default.removeItem(atPath: folder.path("out"))
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let record = ManifestRecord(
            url: evilURL, name: name, status: .ok, httpStatus: 200, bytes: victim.count,
            sha256: SHA256.hash(victim).hexString, etag: "\"v1\"")
        _ = try folder.write(record.jsonLine, to: "out/manifest.jsonl")
    }

    func victimIsIntact() throws -> Bool {
        var status = stat()
        guard lstat(folder.path("victim/important.txt"), &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return false
        }
        return try WholeFile.data(at: folder.url.appendingPathComponent("victim/important.txt")) == victim
    }

    /// Every way a forged name can point outside `out`: a path up and out, an absolute path, and a name that
    /// is a symbolic link inside the folder pointing out.
    var forgedNames: [(name: String, link: Bool)] {
        [("../victim/important.txt", false), (folder.path("victim/important.txt"), false), ("evil.png", true)]
    }

    func prepare(_ forged: (name: String, link: Bool)) throws {
        try forge(name: forged.name)
        if forged.link {
            #expect(symlink(folder.path("victim/important.txt"), folder.path("out/\(forged.name)")) == 0)
        }
    }

    @Test("A plain rerun does not count a forged name as stored: the item is fetched, the outside file untouched")
    func plainRerun() throws {
        for forged in forgedNames {
            try prepare(forged)
            let before = server.requestCount("/img/evil.png")
            let result = try fetch(["--json"])
            #expect(result.status == 0, "\(forged.name): \(result.errors)")
            #expect(server.requestCount("/img/evil.png") == before + 1, "\(forged.name)")
            #expect(try victimIsIntact(), "\(forged.name)")
            // The item is stored inside the folder under its own name (over the link, not through it).
            var status = stat()
            #expect(lstat(folder.path("out/evil.png"), &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
            if !forged.link {
                #expect(
                    result.errors.contains("line 1 names a file this program does not write"), "\(result.errors)")
            }
        }
    }

    @Test("--refresh with the server answering 200 stores the item inside the folder, never over the outside file")
    func refreshReplaces() throws {
        for forged in forgedNames {
            try prepare(forged)
            let result = try fetch(["--refresh"])
            #expect(result.status == 0, "\(forged.name): \(result.errors)")
            #expect(try victimIsIntact(), "\(forged.name)")
            #expect(FileManager.default.fileExists(atPath: folder.path("out/evil.png")))
        }
    }

    @Test("--refresh --prune with the server answering 404 deletes nothing outside the folder")
    func refreshPrunes() throws {
        server.route("/img/evil.png", .text("gone", status: 404))
        for forged in forgedNames {
            for extra in [["--refresh"], ["--refresh", "--prune"]] {
                try prepare(forged)
                let result = try fetch(extra)
                #expect(result.status == 1, "\(forged.name) \(extra): \(result.errors)")
                #expect(server.requestCount("/img/evil.png") > 0)
                #expect(try victimIsIntact(), "\(forged.name) \(extra)")
                if forged.link {
                    // The planted link itself is left as it was: only regular files are ever removed.
                    var status = stat()
                    #expect(lstat(folder.path("out/evil.png"), &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
                }
            }
        }
    }

    @Test("A manifest that is a symbolic link is refused before anything is read or written (exit 1)")
    func manifestSymlink() throws {
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let elsewhere = Data("{\"url\":\"http://example.com/x.png\",\"status\":\"ok\"}\n{\"torn".utf8)
        let target = try folder.write(elsewhere, to: "victim/elsewhere.jsonl")
        #expect(symlink(target, folder.path("out/manifest.jsonl")) == 0)
        let result = try fetch([])
        #expect(result.status == 1)
        #expect(result.errors.contains("manifest.jsonl is a symbolic link, not a regular file"), "\(result.errors)")
        #expect(try WholeFile.data(at: URL(fileURLWithPath: target)) == elsewhere)
        #expect(server.requestCount("/img/evil.png") == 0 && server.requestCount("/img/plain.png") == 0)
        // A dangling link is refused too, and nothing is created where it points.
        try FileManager.default.removeItem(atPath: folder.path("out/manifest.jsonl"))
        #expect(symlink(folder.path("victim/created.jsonl"), folder.path("out/manifest.jsonl")) == 0)
        #expect(try fetch([]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("victim/created.jsonl")))
    }

    @Test("A manifest that is a FIFO or a folder is refused at once, without waiting for a writer (exit 1)")
    func manifestFIFOAndFolder() throws {
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.path("out/manifest.jsonl"), 0o600) == 0)
        let fifo = try fetch([])
        #expect(fifo.status == 1)
        #expect(fifo.errors.contains("manifest.jsonl is a FIFO, not a regular file"), "\(fifo.errors)")
        try FileManager.default.removeItem(atPath: folder.path("out/manifest.jsonl"))
        try FileManager.default.createDirectory(
            atPath: folder.path("out/manifest.jsonl"), withIntermediateDirectories: true)
        let directory = try fetch([])
        #expect(directory.status == 1)
        #expect(directory.errors.contains("manifest.jsonl is a folder, not a regular file"), "\(directory.errors)")
        #expect(server.requestCount("/img/evil.png") == 0)
    }

    @Test("A 100 MB manifest line is skipped with bounded memory; the other records count; no line is lost")
    func hugeLine() throws {
        #expect(try fetch([]).status == 0)
        let manifestURL = folder.url.appendingPathComponent("out/manifest.jsonl")
        let original = try WholeFile.data(at: manifestURL)
        let lines = original.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 2)
        let requestsBefore = server.requestCount("/img/evil.png") + server.requestCount("/img/plain.png")

        // Baseline: the same resume over the plain manifest.
        let baseline = ChildProcessPeak.run(pixpipe.url.path, ["fetch", listPath, "--out", folder.path("out")])
        #expect(baseline.status == 0)
        let plainManifest = try WholeFile.data(at: manifestURL)

        // A 100 MB line between the others (inside a record's string, so it is not JSON either way).
        let huge =
            Data("{\"url\":\"http://example.com/".utf8) + Data(repeating: UInt8(ascii: "a"), count: 100_000_000)
            + Data("\",\"status\":\"ok\"}\n".utf8)
        let handle = try FileHandle(forWritingTo: manifestURL)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(lines[0]) + Data("\n".utf8))
        try handle.write(contentsOf: huge)
        try handle.write(contentsOf: plainManifest.dropFirst(lines[0].count + 1))
        try handle.close()
        let written = try WholeFile.data(at: manifestURL).count

        let measured = ChildProcessPeak.run(pixpipe.url.path, ["fetch", listPath, "--out", folder.path("out")])
        let message = "peak \(measured.peakMiB) MiB with a 100 MB line, \(baseline.peakMiB) MiB without"
        #expect(measured.status == 0, "\(message)")
        #expect(baseline.peakBytes > 0)
        #expect(
            measured.peakBytes <= baseline.peakBytes + 16_000_000 + ChildProcessUsage.sanitizerGrowthAllowance,
            "\(message)")
        // Both items still counted as stored: nothing fetched again.
        #expect(server.requestCount("/img/evil.png") + server.requestCount("/img/plain.png") == requestsBefore)
        // Nothing cut: the file holds everything it held, then the new run's lines.
        let after = try FileHandle(forReadingFrom: manifestURL)
        defer { try? after.close() }
        #expect(try after.seekToEnd() >= UInt64(written))
        try after.seek(toOffset: 0)
        #expect(try after.read(upToCount: lines[0].count + 1) == Data(lines[0]) + Data("\n".utf8))
        try after.seek(toOffset: UInt64(lines[0].count + 1 + huge.count))
        let rest = try #require(try after.readToEnd())
        #expect(rest.starts(with: plainManifest.dropFirst(lines[0].count + 1)))

        // The line is reported, by number, without being quoted.
        let reported = try fetch([])
        #expect(reported.status == 0)
        #expect(reported.errors.contains("line 2 is longer than 1048576 bytes; ignored"), "\(reported.errors)")
        #expect(!reported.errors.contains("aaaaaaaa"))
    }
}
