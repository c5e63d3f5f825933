import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `pixpipe fetch --archive cbz`: books read back with Python's `zipfile` and checked against the list and
/// the manifest.
@Suite("pixpipe fetch --archive cbz", .serialized)
struct FetchComicBookTests {
    /// What Python's `zipfile` reads of one book.
    struct Book: Decodable {
        let names: [String]
        let pages: [String: String]  // member: base64 bytes
        let info: [String: String]
    }

    static func read(_ path: String) throws -> Book {
        let script = """
            import base64, json, sys, zipfile, xml.etree.ElementTree as ET
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                names = z.namelist()
                pages = {n: base64.b64encode(z.read(n)).decode() for n in names if n != "ComicInfo.xml"}
                root = ET.fromstring(z.read("ComicInfo.xml"))
                info = {child.tag: child.text for child in root}
            print(json.dumps({"names": names, "pages": pages, "info": info}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 could not read \(path)")
        return try JSONDecoder().decode(Book.self, from: data)
    }

    @Test("--group-by chapter: one book per chapter, pages in list order, ComicInfo.xml escaped, pages decode")
    func booksByChapter() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var bodies: [String: Data] = [:]
        for number in 1...5 {
            let png = try TestImages.png(TestImages.gradient(width: 8 + number, height: 8))
            bodies["/p\(number).png"] = png
            server.route("/p\(number).png", .respond(body: Array(png)))
        }
        // Chapter 2 starts between chapter 1's pages: each book keeps its pages in list order.
        let rows = [
            "url,series,number,title,chapter",
            "\(server.url("/p1.png")),Cats,1,\"Tom & \"\"Jerry\"\" <1>\",Chapter 1",
            "\(server.url("/p2.png")),Cats,1,\"Tom & \"\"Jerry\"\" <1>\",Chapter 1",
            "\(server.url("/p3.png")),Cats,2,Second,Chapter 2",
            "\(server.url("/p4.png")),Cats,1,\"Tom & \"\"Jerry\"\" <1>\",Chapter 1",
            "\(server.url("/p5.png")),Cats,2,Second,Chapter 2",
        ]
        let list = try folder.write(Data(rows.joined(separator: "\n").utf8), to: "comic.csv")
        let arguments = ["fetch", list, "--out", folder.path("out"), "--archive", "cbz", "--group-by", "chapter"]
        let result = try pixpipe.run(arguments)
        #expect(result.status == 0, "\(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
        #expect(names == ["Chapter 1.cbz", "Chapter 2.cbz", "manifest.jsonl"])

        let first = try Self.read(folder.path("out/Chapter 1.cbz"))
        #expect(first.names == ["001.png", "002.png", "003.png", "ComicInfo.xml"])
        #expect(first.info["Series"] == "Cats" && first.info["Number"] == "1")
        #expect(first.info["Title"] == "Tom & \"Jerry\" <1>")
        #expect(first.info["PageCount"] == "3")
        for (member, path) in [("001.png", "/p1.png"), ("002.png", "/p2.png"), ("003.png", "/p4.png")] {
            let bytes = try #require(first.pages[member].flatMap { Data(base64Encoded: $0) })
            #expect(bytes == bodies[path], "\(member) is \(path)")
            #expect(try Image(data: bytes).width > 0)
        }
        let second = try Self.read(folder.path("out/Chapter 2.cbz"))
        #expect(second.names == ["001.png", "002.png", "ComicInfo.xml"])
        #expect(second.info["Title"] == "Second" && second.info["PageCount"] == "2")

        // The manifest names each page's book and member.
        let text = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let records = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        let p4 = try #require(records.first { $0.url.hasSuffix("/p4.png") })
        #expect(p4.archive == "Chapter 1.cbz" && p4.name == "003.png" && p4.status == .ok)

        // A rerun fetches nothing and leaves the books as they are.
        let again = try pixpipe.run(arguments)
        #expect(again.status == 0, "\(again.errors)")
        for number in 1...5 { #expect(server.requestCount("/p\(number).png") == 1) }
    }

    @Test("without --group-by: one book named after the list; a failed page holds the book back until a rerun")
    func oneBookPerList() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        server.route("/a.png", .respond(body: png))
        server.route("/b.png", .respond(status: 503, body: Array("busy".utf8)))
        let list = try folder.write(
            Data("\(server.url("/a.png"))\n\(server.url("/b.png"))\n".utf8), to: "issue-7.txt")
        let arguments = ["fetch", list, "--out", folder.path("out"), "--archive", "cbz", "--retries", "0"]
        let failed = try pixpipe.run(arguments)
        #expect(failed.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/issue-7.cbz")))

        server.route("/b.png", .respond(body: png))
        let rerun = try pixpipe.run(arguments + ["--retry-failed"])
        #expect(rerun.status == 0, "\(rerun.errors)")
        let book = try Self.read(folder.path("out/issue-7.cbz"))
        #expect(book.names == ["001.png", "002.png", "ComicInfo.xml"])
        #expect(book.info["PageCount"] == "2" && book.info["Series"] == nil)
        // The page stored by the first run was not fetched again.
        #expect(server.requestCount("/a.png") == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
        #expect(names == ["issue-7.cbz", "manifest.jsonl"])
    }

    @Test("--group-by without --archive cbz, and --shard with it, are usage errors")
    func usageErrors() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let folder = try TemporaryDirectory()
        let list = try folder.write(Data("http://127.0.0.1:9/a.png\n".utf8), to: "list.txt")
        #expect(try pixpipe.run(["fetch", list, "--out", folder.path("o"), "--group-by", "chapter"]).status == 2)
        #expect(
            try pixpipe.run(["fetch", list, "--out", folder.path("o"), "--archive", "cbz", "--shard", "0/2"]).status
                == 2)
        // A comic reader would show each kept original as a page of its own.
        let original = try pixpipe.run([
            "fetch", list, "--out", folder.path("o"), "--archive", "cbz", "--thumbnail", "64", "--keep-original",
        ])
        #expect(original.status == 2 && original.errors.contains("--keep-original"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("o")))
    }

    @Test("bad list lines are recorded in the book folder's manifest, and exit 1")
    func badLinesRecorded() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        server.route("/a.png", .respond(body: Array(try TestImages.png())))
        let list = try folder.write(Data("\(server.url("/a.png"))\nftp://example.com/b.png\n".utf8), to: "c.txt")
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--archive", "cbz"])
        #expect(result.status == 1)
        let text = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let records = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        #expect(records.filter { $0.status == .failed }.map(\.errorKind) == ["unsupported-scheme"])
        #expect(records.filter { $0.status == .ok }.map(\.archive) == ["c.cbz"])
    }
}
