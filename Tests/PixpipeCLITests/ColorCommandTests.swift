import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `--profile`, `--keep-profile` and the colour facts of `info`, run through the built executable.
@Suite("pixpipe colour options", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct ColorCommandTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A 300x200 sRGB gradient, and the same picture written in Display P3 (tagged) as a PNG.
    static func p3Photo() throws -> (original: Image, png: Data) {
        let original = TestImages.gradient(width: 300, height: 200, layout: .rgb)
        return (original, try original.converted(toColorSpace: .displayP3).encoded(as: .png))
    }

    /// The mean sample difference of two images of one size and format. A mean, not a maximum: in 8 bits, a
    /// channel near zero beside a bright one (red 8 in a bright green) moves by several steps through any
    /// wide space, a difference of no visible size (the image tests measure CIEDE2000 with Little CMS).
    static func meanDifference(_ first: Image, _ second: Image) -> Double {
        let total = zip(first.pixels, second.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(first.pixels.count)
    }

    @Test func thumbnailsAreSRGBWithoutAProfileByDefault() throws {
        let (original, png) = try Self.p3Photo()
        let input = try TemporaryDirectory()
        let photo = try input.write(png, to: "p3.png")
        let output = try TemporaryDirectory()
        let common = ["thumbnail", photo, "--size", "100", "--format", "png", "--overwrite", "--out"]
        let result = try tool.run(common + [output.url.path])
        #expect(result.status == 0, "\(result.errors)")
        let thumbnail = try Image(contentsOfFile: output.path("p3.png"))
        #expect(thumbnail.metadata.iccProfile == nil)
        let expected = try Thumbnailer(.init(size: .box(100))).thumbnail(of: original)
        #expect(Self.meanDifference(thumbnail, expected) < 0.5)

        let kept = try tool.run(common + [output.url.path, "--keep-profile"])
        #expect(kept.status == 0, "\(kept.errors)")
        let untouched = try Image(contentsOfFile: output.path("p3.png"))
        #expect(untouched.metadata.iccProfile == ColorProfile.displayP3.iccData)
        #expect(Self.meanDifference(untouched, expected) > 5)
    }

    @Test func thumbnailProfileOption() throws {
        let input = try TemporaryDirectory()
        let photo = try input.write(
            try TestImages.png(TestImages.gradient(width: 120, height: 80, layout: .rgb)), to: "a.png")
        let profileFile = try input.write(Data(ColorProfile.adobeRGB.iccData), to: "camera.icc")
        let output = try TemporaryDirectory()
        for (name, expected) in [("p3", ColorProfile.displayP3), ("adobergb", .adobeRGB), (profileFile, .adobeRGB)] {
            let result = try tool.run(["thumbnail", photo, "--out", output.url.path, "--overwrite", "--profile", name])
            #expect(result.status == 0, "\(result.errors)")
            #expect(try Image(contentsOfFile: output.path("a.jpg")).metadata.iccProfile == expected.iccData, "\(name)")
        }
        let bad = try tool.run(["thumbnail", photo, "--out", output.url.path, "--profile", "nonsense"])
        #expect(bad.status == 2 && bad.errors.contains("--profile"))
        let both = try tool.run(["thumbnail", photo, "--out", output.url.path, "--profile", "p3", "--keep-profile"])
        #expect(both.status == 2)
    }

    @Test func convertKeepsColoursUnlessAsked() throws {
        let (original, png) = try Self.p3Photo()
        let input = try TemporaryDirectory()
        let photo = try input.write(png, to: "p3.png")
        let kept = try tool.run(["convert", photo, input.path("kept.png")])
        #expect(kept.status == 0, "\(kept.errors)")
        let keptImage = try Image(contentsOfFile: input.path("kept.png"))
        #expect(try keptImage.pixels == Image(data: png).pixels)
        #expect(keptImage.metadata.iccProfile == ColorProfile.displayP3.iccData)

        let converted = try tool.run(["convert", photo, input.path("srgb.png"), "--profile", "srgb"])
        #expect(converted.status == 0, "\(converted.errors)")
        let sRGB = try Image(contentsOfFile: input.path("srgb.png"))
        #expect(sRGB.metadata.iccProfile == ColorProfile.sRGB.iccData)
        #expect(Self.meanDifference(sRGB, original) < 0.5)
    }

    @Test func infoReportsTheProfile() throws {
        let (_, png) = try Self.p3Photo()
        let input = try TemporaryDirectory()
        let photo = try input.write(png, to: "p3.png")
        let result = try tool.run(["info", "--json", photo])
        #expect(result.status == 0, "\(result.errors)")
        let record = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        #expect(record?["iccDescription"] as? String == "Display P3")
        #expect(record?["iccColorSpace"] as? String == "rgb")
        #expect(record?["iccIsSRGB"] as? Bool == false)
        let human = try tool.run(["info", photo])
        #expect(String(decoding: human.output, as: UTF8.self).contains("'Display P3' rgb"))
    }

    @Test func fetchThumbnailsFollowTheThumbnailDefault() throws {
        let (original, png) = try Self.p3Photo()
        let server = try TestHTTPServer()
        server.route("/p3.png", .respond(headers: ["Content-Type": "image/png"], body: Array(png)))
        let folder = try TemporaryDirectory()
        let list = try folder.write(Data((server.url("/p3.png").absoluteString + "\n").utf8), to: "list.txt")
        let output = folder.url.appendingPathComponent("out").path
        let result = try tool.run(["fetch", list, "--out", output, "--thumbnail", "100", "--retries", "1"])
        #expect(result.status == 0, "\(result.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasSuffix(".jpg") }
        let name = try #require(files.first)
        let thumbnail = try Image(contentsOfFile: output + "/" + name)
        #expect(thumbnail.metadata.iccProfile == nil)
        let expected = try Thumbnailer(.init(size: .box(100))).thumbnail(of: original)
        let unconverted = try Thumbnailer(.init(size: .box(100), colorConversion: nil)).thumbnail(data: png)
        // JPEG noise on both; the unconverted P3 numbers are much further off.
        #expect(Self.meanDifference(thumbnail, expected) < 2)
        #expect(Self.meanDifference(unconverted, expected) > 5)
    }
}
