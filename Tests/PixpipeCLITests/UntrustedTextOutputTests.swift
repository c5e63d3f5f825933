import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// Text from a server, a list or a file name reaches the terminal and the manifest with its controls escaped.
@Suite("Untrusted text on the terminal", .serialized)
struct UntrustedTextOutputTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    /// What a hostile server puts in an error page: set the terminal's title, clear the screen.
    static let terminalAttack = "\u{1B}]0;pwned\u{07}\u{1B}[2J"

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
    }

    /// Whether `bytes` hold a byte that drives a terminal: C0 other than a line feed, DEL, or a C1 in UTF-8.
    static func hasControlBytes(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { return true }
            // U+0080-U+009F are C2 80-C2 9F in UTF-8.
            if previous == 0xC2, (0x80...0x9F).contains(byte) { return true }
            previous = byte
        }
        return false
    }

    @Test("A 404 whose body drives the terminal prints one escaped line, and the manifest holds no control")
    func hostileErrorBody() throws {
        let html = (1...13).map { "<p>line \($0) of the error page</p>" }.joined(separator: "\n")
        server.route("/missing.png", .respond(status: 404, body: Array((Self.terminalAttack + "\n" + html).utf8)))
        let list = try folder.write(Data((server.url("/missing.png").absoluteString + "\n").utf8), to: "list.txt")

        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--retries", "1", "--json"])

        #expect(result.status == 1)
        #expect(!Self.hasControlBytes(result.errors.utf8))
        #expect(!Self.hasControlBytes(result.output))
        let failure = try #require(result.errors.split(separator: "\n").first { $0.contains("answered HTTP 404") })
        #expect(failure.contains("\\x1b]0;pwned\\x07\\x1b[2J <p>line 1 of the error page</p> <p>line 2"))
        #expect(failure.hasSuffix("…"))
        let manifest = try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/manifest.jsonl")))
        #expect(!Self.hasControlBytes(manifest))
        let record = try #require(try manifestRecords(in: folder).first)
        let error = try #require(record.error)
        #expect(!error.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(error.contains("\\x1b]0;pwned\\x07\\x1b[2J"))
        let excerpt = try #require(error.components(separatedBy: "answered HTTP 404: ").last)
        #expect(excerpt.count <= HTTPError.bodyExcerptLength)
    }

    @Test("A list's bad line and the list's own name are escaped in warnings, and in JSON to the same text")
    func hostileListLine() throws {
        let line = "not a url\u{1B}[2J\u{9B}31m\u{202E}gnp"
        let name = "list\u{1B}[31m.txt"
        let list = try folder.write(Data((line + "\n").utf8), to: name)

        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--json", "--dry-run"])

        #expect(!Self.hasControlBytes(result.errors.utf8))
        #expect(!Self.hasControlBytes(result.output))
        #expect(!result.errors.unicodeScalars.contains("\u{202E}"))
        #expect(!result.outputText.unicodeScalars.contains("\u{202E}"))
        let warning = try #require(result.errors.split(separator: "\n").first { $0.contains("warning") })
        #expect(warning.contains("list\\x1b[31m.txt: "))
        #expect(warning.contains("not a url\\x1b[2J\\x9b31m\\u{202e}gnp"))
        // JSON escapes the same scalars as `\u`, so the decoded value is the list's own text.
        let invalid = try #require(result.outputLines.first { $0.contains("invalid") })
        #expect(invalid.contains("\\u001b[2J\\u009b31m\\u202egnp"))
        let decoded = try JSONSerialization.jsonObject(with: Data(invalid.utf8)) as? [String: Any]
        #expect(decoded?.values.contains { ($0 as? String)?.contains(line) == true } == true)
    }

    @Test("A file name with controls is escaped in pixpipe info's failure and result lines")
    func hostileFileName() throws {
        let bad = try folder.write(Data("not an image".utf8), to: "bad\u{1B}[2J.png")
        let good = try folder.write(try TestImages.png(), to: "good\u{1B}]0;x\u{07}.png")

        let result = try pixpipe.run(["info", bad, good])

        #expect(result.status == 1)
        #expect(!Self.hasControlBytes(result.errors.utf8))
        #expect(!Self.hasControlBytes(result.output))
        #expect(result.errors.contains("bad\\x1b[2J.png"))
        #expect(result.outputText.contains("good\\x1b]0;x\\x07.png"))
    }

    @Test("A file name with controls is escaped in pixpipe thumbnail's failure line")
    func hostileThumbnailInput() throws {
        let bad = try folder.write(Data("not an image".utf8), to: "bad\u{1B}[2J\u{202E}.png")

        let result = try pixpipe.run(["thumbnail", bad, "--out", folder.path("thumbs"), "--size", "50"])

        #expect(result.status != 0)
        #expect(!Self.hasControlBytes(result.errors.utf8))
        #expect(result.errors.contains("bad\\x1b[2J\\u{202e}.png"))
    }
}
