import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// Inputs that are not images Pixpipe reads, each with what every command must call it.
private let notImages: [(name: String, bytes: [UInt8], message: String)] = [
    ("empty.png", [], "empty file, not an image"),
    (
        "page.jpg", [0xEF, 0xBB, 0xBF] + Array(" \n\t<!DOCTYPE html><html><body>Not found</body></html>".utf8),
        "HTML page, not an image"
    ),
    ("bare.png", Array("\n<HTML>\n<p>moved</p></HTML>".utf8), "HTML page, not an image"),
    ("notes.png", Array("shopping: milk, eggs\n".utf8), "text file, not an image"),
    ("scan.jpg", Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n".utf8), "PDF document, not an image"),
    (
        "old.bmp", Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0],
        "BMP image: not supported"
    ),
    (
        "raw.png", Array("P6\n2 2\n255\n".utf8) + [UInt8](repeating: 9, count: 12),
        "Netpbm image: Pixpipe writes but does not read this format"
    ),
]

@Suite("pixpipe: messages name what an input is, and where the output cannot go")
struct InputMessageTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    private func record(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test(
        "info, convert and thumbnail say the same about the same bytes; the short name stays not-an-image",
        arguments: notImages.indices)
    func notAnImage(index: Int) throws {
        let (name, bytes, message) = notImages[index]
        let directory = try TemporaryDirectory()
        let input = try directory.write(Data(bytes), to: name)

        let info = try pixpipe.run(["info", "--json", input])
        #expect(info.status == 1)
        let failure = try record(try #require(info.outputLines.first))
        #expect(failure["error"] as? String == message)
        #expect(failure["errorKind"] as? String == "not-an-image")
        #expect(info.errors.contains("pixpipe: info: \(input): \(message)"))

        let convert = try pixpipe.run(["convert", input, directory.path("out.png")])
        #expect(convert.status == 1)
        #expect(convert.errors.contains("pixpipe: convert: \(input): \(message)"))

        let thumbnail = try pixpipe.run(["thumbnail", input, "--out", directory.path("thumbs")])
        #expect(thumbnail.status == 1)
        #expect(thumbnail.errors.contains(message))

        let piped = try pixpipe.run(["info", "-"], input: Data(bytes))
        #expect(piped.errors.contains("pixpipe: info: -: \(message)"))
    }

    @Test("info on a folder: one record per image file under it, recursively, in path order; other files quiet")
    func infoOnFolder() throws {
        let directory = try TemporaryDirectory()
        let png = try TestImages.png()
        let jpeg = try TestImages.gradient(width: 24, height: 10, layout: .rgb).encoded(as: .jpeg)
        try FileManager.default.createDirectory(
            atPath: directory.path("photos/2024/june"), withIntermediateDirectories: true)
        try directory.write(png, to: "photos/a.png")
        try directory.write(jpeg, to: "photos/2024/june/b.jpg")
        try directory.write(jpeg, to: "photos/2024/no-extension")
        try directory.write(Data("milk\n".utf8), to: "photos/notes.txt")
        try directory.write(Data([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]), to: "photos/.DS_Store")
        let folder = directory.path("photos")

        let result = try pixpipe.run(["info", "--json", folder])
        #expect(result.status == 0)
        let records = try result.outputLines.map(record)
        #expect(
            records.map { $0["path"] as? String } == [
                folder + "/2024/june/b.jpg", folder + "/2024/no-extension", folder + "/a.png",
            ])
        #expect(records.map { $0["width"] as? Int } == [24, 24, 16])
        #expect(result.errors.isEmpty)

        // An image file that fails is still reported, and makes the status 1.
        try directory.write(Data("not really".utf8), to: "photos/broken.png")
        let human = try pixpipe.run(["info", folder + "/"])
        #expect(human.status == 1)
        #expect(human.outputLines.count == 3)
        #expect(human.outputLines.first?.hasPrefix(folder + "/2024/june/b.jpg: ") == true)
        #expect(human.errors.contains("pixpipe: info: \(folder)/broken.png: text file, not an image"))
        #expect(!human.errors.contains("notes.txt") && !human.errors.contains("DS_Store"))
    }

    @Test("info reads the header only: PNG, JPEG, WebP and TIFF files with a 64 GiB sparse tail answer correctly")
    func infoOnHugeFile() throws {
        let directory = try TemporaryDirectory()
        let photo = TestImages.gradient(width: 40, height: 30, layout: .rgb)
        for (name, data) in [
            ("big.png", try TestImages.png()), ("big.jpg", try photo.encoded(as: .jpeg)),
            ("big.webp", try photo.encoded(as: .webp)), ("big.tif", try photo.encoded(as: .tiff)),
        ] {
            let path = try directory.write(data, to: name)
            // A hole, not written bytes: reading it whole would need 64 GiB of memory.
            #expect(truncate(path, off_t(64) << 30) == 0)
            let result = try pixpipe.run(["info", "--json", path])
            #expect(result.status == 0, "\(result.errors)")
            let info = try record(try #require(result.outputLines.first))
            #expect(info["width"] as? Int == (name == "big.png" ? 16 : 40))
            #expect(info["height"] as? Int == (name == "big.png" ? 8 : 30))
        }
    }

    @Test("A folder given to convert is called a folder")
    func convertFolder() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("photos"), withIntermediateDirectories: true)
        let result = try pixpipe.run(["convert", directory.path("photos"), directory.path("out.png")])
        #expect(result.status == 1)
        #expect(result.errors.contains("photos: is a folder, not a file"))
        #expect(!result.errors.contains("too large"))
        #expect(try directory.fileNames() == ["photos"])
    }

    @Test(
        "An output extension of a known format Pixpipe does not write says so (usage, status 2)",
        arguments: [
            ("out.gif", "cannot write 'OUT': GIF: Pixpipe reads but does not write this format"),
            ("out.BMP", "cannot write 'OUT': BMP: not supported"),
            ("out.psd", "cannot write 'OUT': Photoshop: not supported"),
        ])
    func unwritableExtension(name: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(try TestImages.png(), to: "in.png")
        let output = directory.path(name)
        let result = try pixpipe.run(["convert", input, output])
        #expect(result.status == 2)
        #expect(result.errors.contains(message.replacingOccurrences(of: "OUT", with: output)))
        #expect(result.errors.contains(".png"))
        #expect(try directory.fileNames() == ["in.png"])
    }

    @Test("A missing output folder is named as such, before any decoding, and is not created")
    func missingOutputFolder() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(try TestImages.png(), to: "in.png")
        let output = directory.path("nowhere/deeper/out.jpg")
        let result = try pixpipe.run(["convert", input, output])
        #expect(result.status == 1)
        #expect(result.errors.contains("no such folder: \(directory.path("nowhere/deeper"))"))
        #expect(!result.errors.contains("temporary"))
        #expect(try directory.fileNames() == ["in.png"])
    }

    @Test("The top-level help names the formats of the codec table")
    func toolHelpFormats() throws {
        let result = try pixpipe.run(["--help"])
        #expect(result.status == 0)
        #expect(!result.outputText.contains("PNG and JPEG images"))
        // Formats other tests register live in this process only, not in the executable's.
        for format in ImageFormat.all where format.canDecode && !ImageCodecs.registeredFormats.contains(format) {
            #expect(result.outputText.contains(format.rawValue.uppercased()))
        }
    }

    @Test("fetch names an HTML page from its bytes, or from Content-Type when the bytes say only text")
    func fetchHTML() throws {
        let server = try TestHTTPServer()
        let directory = try TemporaryDirectory()
        server.route(
            "/photo.jpg",
            .respond(
                headers: ["Content-Type": "application/octet-stream"],
                body: Array("\n<!doctype html><title>Sign in</title>".utf8)))
        server.route("/error.png", .text("Sorry, that image is gone.", contentType: "text/html; charset=utf-8"))
        server.route("/notes.png", .text("just words", contentType: "text/plain"))
        let list = try directory.write(
            Data(
                ["/photo.jpg", "/error.png", "/notes.png"].map { server.url($0).absoluteString + "\n" }.joined().utf8),
            to: "list.txt")
        let result = try pixpipe.run(["fetch", list, "--out", directory.path("out"), "--retries", "1"])
        #expect(result.status == 1)
        let text = try String(contentsOfFile: directory.path("out/manifest.jsonl"), encoding: .utf8)
        let records = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        let errors = Dictionary(records.map { ($0.url, $0.error ?? "") }) { first, _ in first }
        #expect(errors[server.url("/photo.jpg").absoluteString]?.contains("HTML page, not an image") == true)
        #expect(errors[server.url("/error.png").absoluteString]?.contains("HTML page, not an image") == true)
        #expect(errors[server.url("/notes.png").absoluteString]?.contains("text file, not an image") == true)
        #expect(records.allSatisfy { $0.errorKind == "not-an-image" })
    }
}
