import Foundation
import Pixpipe
import Testing

/// `--resize`/`--size` geometries, `--exact` and `--background`, run through the built executable on files
/// made here; sizes are read back from the written files.
@Suite("pixpipe size options", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct SizeOptionsCommandTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// Converts a 400x200 PNG with `options` and gives the output's width and height.
    func convertedSize(_ options: [String]) throws -> (Int, Int) {
        let folder = try TemporaryDirectory()
        let input = try folder.write(
            try TestImages.png(TestImages.gradient(width: 400, height: 200, layout: .rgb)), to: "in.png")
        let result = try tool.run(["convert", input, folder.path("out.png")] + options)
        #expect(result.status == 0, "\(options): \(result.errors)")
        let image = try Image(contentsOfFile: folder.path("out.png"))
        return (image.width, image.height)
    }

    @Test(
        "convert --resize takes ImageMagick's geometry forms",
        arguments: [
            (["--resize", "50%"], 200, 100),
            (["--resize", "150%"], 600, 300),
            (["--resize", "100x"], 100, 50),
            (["--resize", "x50"], 100, 50),
            (["--resize", "100x100"], 100, 50),
            (["--resize", "100x100!"], 100, 100),
            (["--resize", "1000x100!"], 1000, 100),
            (["--resize", "100x100^"], 100, 100),
            (["--resize", "1000x1000>"], 400, 200),
            (["--resize", "1000x1000<"], 1000, 500),
            (["--resize", "100x100<"], 400, 200),
            (["--resize", "1000x1000"], 400, 200),
            (["--width", "100", "--height", "100", "--exact"], 100, 100),
            (["--width", "100", "--height", "100"], 100, 50),
            (["--size", "100", "--exact"], 100, 100),
        ])
    func convertGeometry(options: [String], width: Int, height: Int) throws {
        let (outWidth, outHeight) = try convertedSize(options)
        #expect(outWidth == width && outHeight == height, "\(options): \(outWidth)x\(outHeight)")
    }

    @Test func thumbnailSizeTakesGeometries() throws {
        let folder = try TemporaryDirectory()
        let input = try folder.write(
            try TestImages.png(TestImages.gradient(width: 400, height: 200, layout: .rgb)), to: "in.png")
        for (size, width, height) in [("50%", 200, 100), ("100x100!", 100, 100), ("64", 64, 32), ("60x60^", 60, 60)] {
            let out = try TemporaryDirectory()
            let result = try tool.run(["thumbnail", input, "--out", out.url.path, "--size", size, "--format", "png"])
            #expect(result.status == 0, "\(result.errors)")
            let image = try Image(contentsOfFile: out.path("in.png"))
            #expect(image.width == width && image.height == height, "\(size): \(image.width)x\(image.height)")
        }
    }

    @Test func badGeometriesAreUsageErrorsNamingTheForms() throws {
        let folder = try TemporaryDirectory()
        let input = try folder.write(try TestImages.png(), to: "in.png")
        for options in [
            ["--resize", "400y300"], ["--resize", "x300!"], ["--size", "0"], ["--width", "10", "--exact"],
            ["--resize", "10x10!", "--fill"], ["--background", "#12345"],
        ] {
            let result = try tool.run(["convert", input, folder.path("out.png")] + options)
            #expect(result.status == 2, "\(options)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
        }
        let result = try tool.run(["convert", input, folder.path("out.png"), "--resize", "400y300"])
        #expect(result.errors.contains("WxH!") && result.errors.contains("N%"), "\(result.errors)")
    }

    @Test func backgroundFlattensAlpha() throws {
        let folder = try TemporaryDirectory()
        // The top-left pixel is fully transparent, the rest opaque.
        let input = try folder.write(try TestImages.png(TestImages.gradient(width: 40, height: 20)), to: "a.png")
        let result = try tool.run(["convert", input, folder.path("out.png"), "--background", "#ff0000"])
        #expect(result.status == 0, "\(result.errors)")
        let flat = try Image(contentsOfFile: folder.path("out.png"))
        #expect(flat.pixelFormat == .rgb8)
        #expect([0, 1, 2].map { flat[x: 0, y: 0, channel: $0] } == [255, 0, 0])
        #expect(flat[x: 5, y: 5, channel: 2] == 100)

        let kept = try tool.run(["convert", input, folder.path("kept.png")])
        #expect(kept.status == 0)
        #expect(try Image(contentsOfFile: folder.path("kept.png")).pixelFormat == .rgba8)

        // An opaque background leaves no alpha, so the thumbnail is a JPEG rather than a PNG.
        let out = try TemporaryDirectory()
        let thumb = try tool.run(["thumbnail", input, "--out", out.url.path, "--background", "black"])
        #expect(thumb.status == 0, "\(thumb.errors)")
        #expect(try out.fileNames().contains("a.jpg"))
        let jpeg = try Image(contentsOfFile: out.path("a.jpg"))
        #expect(jpeg[x: 0, y: 0, channel: 0] < 60)
    }
}
