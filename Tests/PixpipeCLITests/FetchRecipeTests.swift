import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Reruns of `pixpipe fetch` with other processing options make the stored files again.
@Suite("pixpipe fetch: a rerun with other options redoes the files they change", .serialized)
struct FetchRecipeTests {
    static let photos = 3

    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    let listPath: String

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        var lines: [String] = []
        for number in 1...Self.photos {
            let image = TestImages.gradient(width: 64, height: 48, layout: .rgb)
            server.route(
                "/photos/\(number).png",
                .conditional(body: Array(try TestImages.png(image)), etag: "\"p\(number)\"", lastModified: nil))
            lines.append(server.url("/photos/\(number).png").absoluteString)
        }
        listPath = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "list.txt")
    }

    func fetch(_ extra: [String]) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["fetch", listPath, "--out", folder.path("out"), "--retries", "0"] + extra)
    }

    /// The width of every stored thumbnail.
    func widths() throws -> [Int] {
        try (1...Self.photos).map { number in
            try Image.info(contentsOfFile: folder.path("out/\(number).jpg")).width
        }
    }

    func requests() -> Int {
        (1...Self.photos).map { server.requestCount("/photos/\($0).png") }.reduce(0, +)
    }

    @Test("--thumbnail 16 after a 32 run redoes every thumbnail and says so; the same options again skip")
    func changedSizeRedoes() throws {
        let first = try fetch(["--thumbnail", "32"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(try widths() == [32, 32, 32])
        let same = try fetch(["--thumbnail", "32"])
        #expect(same.errors.contains("0 ok, 0 failed, 3 skipped"), "\(same.errors)")
        #expect(requests() == Self.photos)

        let smaller = try fetch(["--thumbnail", "16"])
        #expect(smaller.status == 0, "\(smaller.errors)")
        #expect(smaller.errors.contains("3 ok, 0 failed, 0 skipped"), "\(smaller.errors)")
        #expect(smaller.errors.contains("3 redone (options changed)"), "\(smaller.errors)")
        #expect(try widths() == [16, 16, 16])
        // The manifest names what made each file.
        let manifest = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let last = try #require(manifest.split(separator: "\n").last)
        let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(last.utf8))
        #expect(record.recipe?.contains("16") == true && record.recipe?.contains("jpeg") == true)

        let again = try fetch(["--thumbnail", "16"])
        #expect(again.errors.contains("3 skipped") && !again.errors.contains("redone"), "\(again.errors)")
    }

    @Test("--refresh with another size redoes the thumbnails instead of calling them unchanged")
    func refreshWithOtherSize() throws {
        #expect(try fetch(["--thumbnail", "32"]).status == 0)
        let refresh = try fetch(["--refresh", "--thumbnail", "8", "--json"])
        #expect(refresh.status == 0, "\(refresh.errors)")
        #expect(refresh.errors.contains("refresh: 0 unchanged"), "\(refresh.errors)")
        #expect(refresh.errors.contains("3 redone (options changed)"))
        let lastLine = try #require(refresh.outputLines.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        #expect(summary["redone"] as? Int == Self.photos)
        #expect(try widths() == [8, 8, 8])
        // The full body was asked for: no conditional request for a redo.
        #expect(server.requests("/photos/1.png").last?.header("If-None-Match") == nil)
        // The next refresh with the same options revalidates and finds them unchanged.
        let next = try fetch(["--refresh", "--thumbnail", "8"])
        #expect(next.errors.contains("refresh: 3 unchanged"), "\(next.errors)")
    }

    @Test("A manifest without recipes (older runs) is redone only when this run processes images")
    func unrecordedRecipe() throws {
        #expect(try fetch(["--thumbnail", "32"]).status == 0)
        // As an older version wrote it: no recipe key.
        let path = folder.path("out/manifest.jsonl")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let stripped = try lines.map { line -> String in
            var record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line.utf8))
            record.recipe = nil
            return String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        }
        #expect(!stripped.joined().contains("recipe"))
        try Data((stripped.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let rerun = try fetch(["--thumbnail", "32"])
        #expect(rerun.errors.contains("3 redone (options changed)"), "\(rerun.errors)")

        // A plain download over a plain download's old manifest stays skipped.
        let plainFolder = try TemporaryDirectory()
        let plain = { try self.pixpipe.run(["fetch", self.listPath, "--out", plainFolder.path("p")]) }
        #expect(try plain().status == 0)
        let plainAgain = try plain()
        #expect(plainAgain.errors.contains("3 skipped") && !plainAgain.errors.contains("redone"))
    }
}

/// Redoing from the original kept beside each file.
@Suite("pixpipe fetch --keep-original: a rerun with other options redoes from the kept originals")
struct FetchRecipeOriginalTests {
    @Test("--thumbnail 16 --keep-original after a 32 run makes no request and redoes every thumbnail")
    func redoFromOriginal() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var urls: [String] = []
        for number in 1...2 {
            let image = TestImages.gradient(width: 64, height: 48, layout: .rgb)
            server.route("/o/\(number).png", .respond(body: Array(try TestImages.png(image))))
            urls.append(server.url("/o/\(number).png").absoluteString)
        }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let fetch = { (extra: [String]) in
            try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--keep-original"] + extra)
        }
        #expect(try fetch(["--thumbnail", "32"]).status == 0)
        #expect(server.requestCount("/o/1.png") == 1)
        let redo = try fetch(["--thumbnail", "16"])
        #expect(redo.status == 0, "\(redo.errors)")
        #expect(redo.errors.contains("2 redone (options changed)"), "\(redo.errors)")
        #expect(server.requestCount("/o/1.png") == 1 && server.requestCount("/o/2.png") == 1)
        #expect(try Image.info(contentsOfFile: folder.path("out/1.jpg")).width == 16)
        #expect(FileManager.default.fileExists(atPath: folder.path("out/1.original.png")))

        // Without its original the item is downloaded again.
        try FileManager.default.removeItem(atPath: folder.path("out/2.original.png"))
        let again = try fetch(["--thumbnail", "8"])
        #expect(again.errors.contains("2 redone (options changed)"), "\(again.errors)")
        #expect(server.requestCount("/o/1.png") == 1 && server.requestCount("/o/2.png") == 2)
        #expect(try Image.info(contentsOfFile: folder.path("out/2.jpg")).width == 8)
    }
}
