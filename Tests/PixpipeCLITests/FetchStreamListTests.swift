import Foundation
import PixpipeTestSupport
import Testing

/// A list given as a stream (a shell's `<(command)`, a FIFO) is read once and spooled, like standard
/// input: the scan and the batch both see every line.
@Suite(
    "pixpipe fetch: a list from a pipe",
    .enabled(if: PixpipeExecutable.built != nil && FileManager.default.isExecutableFile(atPath: "/bin/bash")))
struct FetchStreamListTests {
    @Test func aProcessSubstitutionListIsFetchedInFull() throws {
        let pixpipe = try #require(PixpipeExecutable.built).url.path
        let server = try TestHTTPServer()
        server.route("/a.png", .respond(headers: ["Content-Type": "image/png"], body: Array(try TestImages.png())))
        let folder = try TemporaryDirectory()
        let urls = (1...3).map { server.url("/a.png?n=\($0)").absoluteString }.joined(separator: "\n")
        let list = try folder.write(Data((urls + "\n").utf8), to: "list.txt")
        let out = folder.path("out")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // Bash passes `/dev/fd/N`, a pipe that can be read only once. Paths come as positional arguments.
        process.arguments = ["-c", "exec \"$0\" fetch <(cat \"$1\") --out \"$2\"", pixpipe, list, out]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(try folder.fileNames() == ["list.txt", "out"])
        let stored = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(stored == ["a-2.png", "a-3.png", "a.png", "manifest.jsonl"])
        #expect(server.requestCount("/a.png") == 3)
    }
}
