import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `pixpipe verify DIR` run as a process on a folder `pixpipe fetch` filled from a local server.
@Suite("pixpipe verify: every stored file present with its recorded size and SHA-256", .serialized)
struct VerifyCommandTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        var urls: [String] = []
        for number in 1...4 {
            let body = try FetchNameReservationTests.page(200 + number)
            server.route("/v/\(number).png", .respond(headers: ["Content-Type": "image/png"], body: Array(body)))
            urls.append(server.url("/v/\(number).png").absoluteString)
        }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let fetched = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--timeout", "5"])
        #expect(fetched.status == 0)
    }

    func verify(_ extra: [String] = []) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["verify", folder.path("out")] + extra)
    }

    func file(_ name: String) -> URL { URL(fileURLWithPath: folder.path("out/\(name)")) }

    @Test("A folder as fetch left it: exit 0, nothing listed")
    func clean() throws {
        let result = try verify()
        #expect(result.status == 0 && result.outputLines.isEmpty)
        #expect(result.errors.contains("4 stored files checked, all as recorded"))
        let json = try verify(["--json"])
        #expect(json.status == 0 && json.outputLines.count == 1)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(json.outputLines[0].utf8)) as? [String: Any])
        #expect(summary["event"] as? String == "summary" && summary["checked"] as? Int == 4)
        #expect(summary["problems"] as? Int == 0)
    }

    @Test("A truncated file, a changed byte, a deleted file and a link: exit 1, each listed with its problem")
    func damaged() throws {
        let truncated = try WholeFile.data(at: file("1.png"))
        try truncated.prefix(truncated.count - 5).write(to: file("1.png"))
        var changed = try WholeFile.data(at: file("2.png"))
        changed[changed.count / 2] ^= 0x01
        try changed.write(to: file("2.png"))
        try FileManager.default.removeItem(at: file("3.png"))
        // A link to an identical copy elsewhere still is not the stored file: never followed.
        try WholeFile.data(at: file("4.png")).write(to: URL(fileURLWithPath: folder.path("copy.png")))
        try FileManager.default.removeItem(at: file("4.png"))
        try FileManager.default.createSymbolicLink(atPath: file("4.png").path, withDestinationPath: "../copy.png")

        let result = try verify()
        #expect(result.status == 1)
        #expect(result.outputLines.count == 4)
        #expect(result.outputLines.contains { $0.hasPrefix("1.png: wrong-size: \(truncated.count - 5) bytes") })
        #expect(result.outputLines.contains { $0.hasPrefix("2.png: wrong-hash") })
        #expect(result.outputLines.contains { $0.hasPrefix("3.png: missing") })
        #expect(result.outputLines.contains { $0.hasPrefix("4.png: unsafe-name") })
        #expect(result.errors.contains("4 stored files checked, 4 not as recorded"))

        let json = try verify(["--json"])
        #expect(json.status == 1)
        var problems: [String: String] = [:]
        for line in json.outputLines.dropLast() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == "problem")
            problems[object["name"] as? String ?? ""] = object["problem"] as? String
        }
        #expect(
            problems == ["1.png": "wrong-size", "2.png": "wrong-hash", "3.png": "missing", "4.png": "unsafe-name"])
    }

    @Test("A manifest name outside the folder is refused, not read; a later line for a URL wins")
    func namesOutside() throws {
        let outside = try WholeFile.data(at: file("1.png"))
        try outside.write(to: URL(fileURLWithPath: folder.path("victim.png")))
        let record = ManifestRecord(
            url: server.url("/v/1.png").absoluteString, name: "../victim.png", status: .ok, bytes: outside.count,
            sha256: SHA256.hash(outside).hexString)
        let handle = try FileHandle(forWritingTo: file("manifest.jsonl"))
        try handle.seekToEnd()
        try handle.write(contentsOf: record.jsonLine)
        try handle.close()
        let result = try verify()
        #expect(result.status == 1 && result.outputLines.count == 1)
        #expect(result.outputLines.first?.hasPrefix("../victim.png: unsafe-name") == true)
    }

    @Test("A manifest that is a symbolic link is refused; usage errors exit 2; --help exits 0")
    func refusals() throws {
        let manifest = file("manifest.jsonl")
        try FileManager.default.moveItem(at: manifest, to: URL(fileURLWithPath: folder.path("elsewhere.jsonl")))
        try FileManager.default.createSymbolicLink(atPath: manifest.path, withDestinationPath: "../elsewhere.jsonl")
        let linked = try verify()
        #expect(linked.status == 1 && linked.errors.contains("is a symbolic link, not a regular file"))
        // The same refusal, and the same name, as the downloader's for a manifest that is not a regular file.
        let linkedJSON = try verify(["--json"])
        #expect(linkedJSON.status == 1 && linkedJSON.outputText.contains(#""errorKind":"unsafe-manifest""#))
        let missing = try pixpipe.run(["verify", folder.path("nothing-here")])
        #expect(missing.status == 1 && missing.errors.contains("cannot open"))
        let missingJSON = try pixpipe.run(["verify", "--json", folder.path("nothing-here")])
        #expect(missingJSON.status == 1 && missingJSON.outputText.contains(#""errorKind":"manifest-unreadable""#))
        #expect(try pixpipe.run(["verify"]).status == 2)
        #expect(try pixpipe.run(["verify", "a", "b"]).status == 2)
        #expect(try pixpipe.run(["verify", "--bogus", "a"]).status == 2)
        let help = try pixpipe.run(["verify", "--help"])
        #expect(help.status == 0 && help.outputText.contains("pixpipe verify [OPTIONS] DIR"))
    }
}
