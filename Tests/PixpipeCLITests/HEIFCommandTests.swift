import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The HEIF codec through the command line, run as a process: every command reaches it through the codec
/// table, with no HEIF-specific code in the tool.
@Suite("pixpipe on HEIC: info, convert both ways, thumbnail, fetch")
struct HEIFCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Parses the single JSON record of `info --json`.
    private func record(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("PNG to HEIC by extension with --quality and --lossless, info reads it, HEIC back to PNG")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(TestImages.gradient(width: 40, height: 24)), to: "in.png")
        let heic = directory.path("out.heic")
        let convert = try pixpipe.run(["convert", input, heic, "--quality", "90"])
        #expect(convert.status == 0, "\(convert.errors)")
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: heic))) == .heif)
        let fields = try record(try pixpipe.run(["info", "--json", heic]).outputText)
        #expect(fields["format"] as? String == "heif")
        #expect(fields["width"] as? Int == 40 && fields["height"] as? Int == 24)
        #expect(fields["alpha"] as? Bool == true)

        let png = directory.path("back.png")
        #expect(try pixpipe.run(["convert", heic, png]).status == 0)
        let back = try Image(contentsOfFile: png)
        #expect(back.width == 40 && back.height == 24 && back.pixelFormat == .rgba8)
        #expect(back.psnr(try Image(contentsOfFile: input)) > 30)

        let lossless = directory.path("lossless.heic")
        #expect(try pixpipe.run(["convert", input, lossless, "--lossless"]).status == 0)
        #expect(try Image(contentsOfFile: lossless).psnr(try Image(contentsOfFile: input)) > 45)
    }

    @Test("Deep samples stay deep into HEIC: a 10-bit HEIC and a 16-bit PNG become 10-bit HEICs, --depth 8 8-bit")
    func deepSamples() throws {
        let directory = try TemporaryDirectory()
        var ramp = Image(width: 64, height: 8, pixelFormat: PixelFormat(layout: .rgb, bitsPerSample: 16))
        for y in 0..<8 {
            for x in 0..<64 {
                for channel in 0..<3 { ramp[x: x, y: y, channel: channel] = x * 1024 + channel * 97 + y }
            }
        }
        let deepPNG = try directory.write(try ramp.encoded(as: .png), to: "ramp16.png")
        var sources = [deepPNG]
        if Corpora.isAvailable { sources.append(Corpora.path("heif/gen-10bit-420-q70.heic")) }
        for (index, source) in sources.enumerated() {
            let deep = directory.path("deep\(index).heic")
            let convert = try pixpipe.run(["convert", source, deep])
            #expect(convert.status == 0, "\(convert.errors)")
            #expect(try record(try pixpipe.run(["info", "--json", deep]).outputText)["bitDepth"] as? Int == 10)
            let shallow = directory.path("shallow\(index).heic")
            #expect(try pixpipe.run(["convert", source, shallow, "--depth", "8"]).status == 0)
            #expect(try record(try pixpipe.run(["info", "--json", shallow]).outputText)["bitDepth"] as? Int == 8)
        }
        let asked = try pixpipe.run(["convert", deepPNG, directory.path("asked.heic"), "--depth", "16"])
        #expect(asked.status == 0)
        #expect(asked.errors.contains("heif stores deep samples at 10 bits"), "\(asked.errors)")
    }

    @Test("info shows the images and the thumbnail of a HEIC, human and --json")
    func info() throws {
        guard Corpora.isAvailable else { return }
        let two = Corpora.path("heif/gen-two-images-q60.heic")
        #expect(try pixpipe.run(["info", two]).outputText.contains("2 images"))
        #expect(try record(try pixpipe.run(["info", "--json", two]).outputText)["images"] as? Int == 2)
        let withThumbnail = Corpora.path("heif/gen-thumbnail-q60.heic")
        #expect(try pixpipe.run(["info", withThumbnail]).outputText.contains("thumbnail 84x128"))
        let fields = try record(try pixpipe.run(["info", "--json", withThumbnail]).outputText)
        let auxiliary = try #require(fields["auxiliaryImages"] as? [[String: Any]])
        #expect(auxiliary.first?["kind"] as? String == "thumbnail")
        #expect(auxiliary.first?["width"] as? Int == 84 && auxiliary.first?["height"] as? Int == 128)
    }

    @Test("a HEIC stored turned (irot 270, Exif orientation 6 too): convert and thumbnail show it upright, once")
    func rotated() throws {
        guard Corpora.isAvailable else { return }
        let file = Corpora.path("heif/gen-orientation6.heic")
        let directory = try TemporaryDirectory()
        let jpeg = directory.path("photo.jpg")
        let convert = try pixpipe.run(["convert", file, jpeg])
        #expect(convert.status == 0, "\(convert.errors)")
        let upright = try Image(contentsOfFile: jpeg).applyingOrientation()
        #expect(upright.width == 256 && upright.height == 384)
        let out = directory.path("thumbs")
        let thumbnail = try pixpipe.run(["thumbnail", file, "--out", out, "--size", "64", "--format", "png"])
        #expect(thumbnail.status == 0, "\(thumbnail.errors)")
        let small = try Image(contentsOfFile: "\(out)/gen-orientation6.png")
        #expect(small.width == 43 && small.height == 64)
    }

    @Test(
        "thumbnail of a folder of HEICs made by heif-enc -t: from the 320 px thumbnail image at 256, the primary at 400",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc")))
    func embeddedThumbnail() throws {
        let directory = try TemporaryDirectory()
        let png = try directory.write(
            TestImages.png(TestImages.gradient(width: 1200, height: 900, layout: .rgb)), to: "in.png")
        let folder = directory.path("photos")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let heic = "\(folder)/photo.heic"
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "60", "-t", "320", "-o", heic, png]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        #expect(encoder.terminationStatus == 0)
        let primary = try Image(contentsOfFile: heic)
        for (side, fromThumbnail) in [(256, true), (400, false)] {
            let out = directory.path("thumbs-\(side)")
            let run = try pixpipe.run(["thumbnail", folder, "--out", out, "--size", "\(side)", "--format", "png"])
            #expect(run.status == 0, "\(run.errors)")
            let made = try Image(contentsOfFile: "\(out)/photo.png")
            let expected = try Thumbnailer(.init(size: .box(side))).thumbnail(of: primary)
            #expect(made.width == expected.width && made.height == expected.height)
            #expect((made.pixels == expected.pixels) == !fromThumbnail, "\(side)")
            #expect(made.psnr(expected) > 30, "\(side)")
        }
    }

    @Test("fetch verifies a HEIC, names it .heic and records format heif")
    func fetch() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(TestImages.gradient(width: 32, height: 20)), to: "in.png")
        let heic = directory.path("photo.heic")
        #expect(try pixpipe.run(["convert", input, heic]).status == 0)
        let server = try TestHTTPServer()
        server.route(
            "/photo",
            .respond(
                headers: ["Content-Type": "image/heic"], body: Array(try Data(contentsOf: URL(fileURLWithPath: heic)))))
        let list = try directory.write(Data((server.url("/photo").absoluteString + "\n").utf8), to: "list.txt")
        let result = try pixpipe.run([
            "fetch", list, "--out", directory.path("out"), "--retries", "1", "--timeout", "5",
        ])
        #expect(result.status == 0, "\(result.errors)")
        let records = try manifestRecords(in: directory)
        #expect(records.count == 1)
        #expect(records.first?.format == "heif")
        #expect(records.first?.name?.hasSuffix(".heic") == true)
        #expect(records.first?.width == 32 && records.first?.height == 20)
    }
}
