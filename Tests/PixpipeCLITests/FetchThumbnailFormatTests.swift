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

    @Test("--animated keeps every frame of an animated image in a WebP thumbnail; stills stay JPEG")
    func animated() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        // Frames that differ, so the encoder keeps three (identical ones may be merged into one).
        let frames = (0..<3).map { index in
            var image = TestImages.gradient(width: 32, height: 16, layout: .rgb)
            for x in 0..<32 { image[x: x, y: index * 4, channel: 0] = 255 }
            return AnimationFrame(index: index, image: image, duration: .milliseconds(80))
        }
        server.route(
            "/moving.webp", .respond(body: Array(try ImageEncoding.webp.encodeAnimation(frames, loopCount: 2))))
        server.route(
            "/still.png",
            .respond(body: Array(try TestImages.png(TestImages.gradient(width: 32, height: 16, layout: .rgb)))))
        let list = try folder.write(
            Data("\(server.url("/moving.webp").absoluteString)\n\(server.url("/still.png").absoluteString)\n".utf8),
            to: "list.txt")
        let fetched = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--thumbnail", "8", "--animated"])
        #expect(fetched.status == 0, "\(fetched.errors)")
        let moving = try Image.info(data: Data(contentsOf: folder.url.appendingPathComponent("out/moving.webp")))
        #expect(moving.animation?.frameCount == 3 && moving.animation?.loopCount == 2 && moving.width == 8)
        let still = try Data(contentsOf: folder.url.appendingPathComponent("out/still.jpg"))
        #expect(ImageFormat.sniff(still) == .jpeg)

        let usage = try pixpipe.run(["fetch", list, "--out", folder.path("none"), "--animated"])
        #expect(usage.status == 2 && usage.errors.contains("--thumbnail"), "\(usage.errors)")
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

/// `pixpipe fetch` names: an extension told before the download is part of the name claimed.
@Suite("pixpipe fetch: anim.gif and anim.webp keep their names")
struct FetchNameExtensionTests {
    @Test("Stored as they came, anim.gif and anim.webp are two names; thumbnails of both (one format) are not")
    func extensionsKeepNames() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let still = TestImages.gradient(width: 16, height: 8, layout: .rgb)
        // A 1 x 1 GIF (the package writes no GIF): header, screen with a 2-colour table, one image, trailer.
        let gif: [UInt8] =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        server.route("/a/anim.gif", .respond(body: gif))
        server.route(
            "/b/anim.webp",
            .respond(body: Array(try still.encoded(as: try #require(ImageEncoding.standard(for: .webp))))))
        server.route(
            "/c/anim.webp",
            .respond(body: Array(try still.encoded(as: try #require(ImageEncoding.standard(for: .webp))))))
        let urls = ["/a/anim.gif", "/b/anim.webp", "/c/anim.webp"].map { server.url($0).absoluteString }
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        func stored(_ out: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path(out)).filter { $0 != "manifest.jsonl" }
                .sorted()
        }

        let plain = try pixpipe.run(["fetch", list, "--out", folder.path("plain")])
        #expect(plain.status == 0, "\(plain.errors)")
        // The second anim.webp clashes with the first; anim.gif clashes with neither.
        #expect(try stored("plain") == ["anim-2.webp", "anim.gif", "anim.webp"])
        // A rerun keeps every name.
        let again = try pixpipe.run(["fetch", list, "--out", folder.path("plain")])
        #expect(again.errors.contains("3 skipped"), "\(again.errors)")
        #expect(try stored("plain") == ["anim-2.webp", "anim.gif", "anim.webp"])

        let converted = try pixpipe.run(["fetch", list, "--out", folder.path("png"), "--convert", "png"])
        #expect(converted.status == 0, "\(converted.errors)")
        #expect(try stored("png") == ["anim-2.png", "anim-3.png", "anim.png"])
    }
}
