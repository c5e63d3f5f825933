import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("pixpipe fetch: gzip-compressed lists", .serialized)
struct FetchGzipListTests {
    /// Runs a Python script that writes `path`.
    static func python(_ script: String, _ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("urls.txt.gz and list.jsonl.gz are read like their plain text", arguments: ["lines", "jsonl"])
    func gzipLists(format: String) throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        server.route("/a.png", .respond(body: Array(try TestImages.png())))
        let url = server.url("/a.png").absoluteString
        let text = format == "lines" ? "\(url)\n" : "{\"url\":\"\(url)\",\"name\":\"cat\"}\n"
        let plain = try folder.write(Data(text.utf8), to: "plain")
        let list = folder.path(format == "lines" ? "urls.txt.gz" : "list.jsonl.gz")
        try Self.python(
            "import gzip, sys; open(sys.argv[1], 'wb').write(gzip.compress(open('\(plain)', 'rb').read()))", list)
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out")])
        #expect(result.status == 0, "\(result.errors)")
        let stored = format == "lines" ? "a.png" : "cat.png"
        #expect(FileManager.default.fileExists(atPath: folder.path("out/\(stored)")))
    }

    @Test("a gzip bomb is refused before any download, with a message")
    func bomb() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let folder = try TemporaryDirectory()
        let list = folder.path("bomb.txt.gz")
        try Self.python(
            "import gzip, sys; open(sys.argv[1], 'wb').write(gzip.compress(b'\\n' * 200_000_000, 9))", list)
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out")])
        #expect(result.status == 1)
        #expect(result.errors.contains("gzip bomb"), "\(result.errors)")
    }
}
