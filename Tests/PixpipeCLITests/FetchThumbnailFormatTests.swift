import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `pixpipe fetch --thumbnail` picks the stored format by the same rule as `pixpipe thumbnail`.
@Suite("pixpipe fetch --thumbnail: PNG for images with alpha, as thumbnail does")
struct FetchThumbnailFormatTests {
    @Test("An image with alpha becomes a PNG thumbnail and one without a JPEG, from fetch and thumbnail alike")
    func alphaPicksPNG() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let sources: [(name: String, layout: PixelLayout)] = [("clear", .rgba), ("plain", .rgb), ("grey", .grayAlpha)]
        var urls: [String] = []
        for source in sources {
            let data = try TestImages.png(TestImages.gradient(width: 32, height: 16, layout: source.layout))
            try data.write(to: folder.url.appendingPathComponent("\(source.name).png"))
            server.route("/i/\(source.name).png", .respond(body: Array(data)))
            urls.append(server.url("/i/\(source.name).png").absoluteString)
        }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let fetched = try pixpipe.run(["fetch", list, "--out", folder.path("fetched"), "--thumbnail", "8"])
        #expect(fetched.status == 0, "\(fetched.errors)")
        let thumbnailed = try pixpipe.run(
            ["thumbnail"] + sources.map { folder.path("\($0.name).png") } + [
                "--out", folder.path("thumbs"), "--size", "8",
            ])
        #expect(thumbnailed.status == 0, "\(thumbnailed.errors)")

        let fromFetch = try FileManager.default.contentsOfDirectory(atPath: folder.path("fetched"))
            .filter { $0 != "manifest.jsonl" }.sorted()
        let fromThumbnail = try FileManager.default.contentsOfDirectory(atPath: folder.path("thumbs"))
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(fromFetch == ["clear.png", "grey.png", "plain.jpg"])
        #expect(fromFetch == fromThumbnail)
        let stored = try Data(contentsOf: folder.url.appendingPathComponent("fetched/clear.png"))
        #expect(ImageFormat.sniff(stored) == .png)
        #expect(try Image.info(data: stored).pixelFormat.layout.hasAlpha)
    }

    @Test("--convert still sets the format of every thumbnail, alpha or not")
    func convertWins() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        server.route("/clear.png", .respond(body: Array(try TestImages.png())))
        let fetched = try pixpipe.run(
            [
                "fetch", server.url("/clear.png").absoluteString, "--out", folder.path("o"), "--thumbnail", "8",
                "--convert", "jpeg",
            ])
        #expect(fetched.status == 0, "\(fetched.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("o"))
        #expect(names.contains("clear.jpg"), "\(names)")
    }
}
