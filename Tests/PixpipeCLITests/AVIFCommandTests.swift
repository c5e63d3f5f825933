import Foundation
import Pixpipe
import Testing

/// The AVIF codec through the command line, run as a process: every command reaches it through the codec
/// table, with no AVIF-specific code in the tool.
@Suite("pixpipe on AVIF: info, convert both ways, thumbnail")
struct AVIFCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Parses the single JSON record of `info --json`.
    private func record(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("PNG to AVIF by extension, info reads it, AVIF back to PNG keeps size and alpha")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(TestImages.gradient(width: 40, height: 24)), to: "in.png")
        let avif = directory.path("out.avif")
        let convert = try pixpipe.run(["convert", input, avif, "--quality", "90"])
        #expect(convert.status == 0, "\(convert.errors)")
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: avif))) == .avif)

        let info = try pixpipe.run(["info", "--json", avif])
        #expect(info.status == 0)
        let fields = try record(info.outputText)
        #expect(fields["format"] as? String == "avif")
        #expect(fields["width"] as? Int == 40 && fields["height"] as? Int == 24)
        #expect(fields["alpha"] as? Bool == true)

        let png = directory.path("back.png")
        #expect(try pixpipe.run(["convert", avif, png]).status == 0)
        let back = try Image(contentsOfFile: png)
        #expect(back.width == 40 && back.height == 24 && back.pixelFormat == .rgba8)
        #expect(back.psnr(try Image(contentsOfFile: input)) > 30)
    }

    @Test("thumbnail of an AVIF, written as AVIF with --format, at the asked size")
    func thumbnail() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.write(TestImages.png(TestImages.gradient(width: 200, height: 100)), to: "in.png")
        let avif = directory.path("x.avif")
        #expect(try pixpipe.run(["convert", source, avif]).status == 0)
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", avif, "--out", out, "--size", "50", "--format", "avif"])
        #expect(result.status == 0, "\(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(Set(names) == ["x.avif", ".pixpipe-thumbnails.jsonl"])
        let thumbnail = try Image(contentsOfFile: "\(out)/x.avif")
        #expect(thumbnail.width == 50 && thumbnail.height == 25)
    }

    @Test("a rotated corpus file: info reports irot as orientation 6; convert and thumbnail turn it upright")
    func rotated() throws {
        guard Corpora.isAvailable else { return }
        let file = Corpora.path("avif/kimono.rotate90.avif")
        let fields = try record(try pixpipe.run(["info", "--json", file]).outputText)
        #expect(fields["orientation"] as? Int == 6)
        #expect(fields["width"] as? Int == 1024 && fields["height"] as? Int == 722)
        let directory = try TemporaryDirectory()
        let png = directory.path("upright.png")
        #expect(try pixpipe.run(["convert", file, png]).status == 0)
        let upright = try Image(contentsOfFile: png)
        #expect(upright.width == 722 && upright.height == 1024)
        let out = directory.path("thumbs")
        #expect(try pixpipe.run(["thumbnail", file, "--out", out, "--size", "64", "--format", "png"]).status == 0)
        let thumbnail = try Image(contentsOfFile: "\(out)/kimono.rotate90.png")
        #expect(thumbnail.width == 45 && thumbnail.height == 64)
    }

    @Test("a clap file: info reports the crop; convert and thumbnail cut it, then turn the picture upright")
    func cleanAperture() throws {
        guard Corpora.isAvailable else { return }
        let file = Corpora.path("avif/kimono.mirror-vertical.rotate270.crop.avif")
        let fields = try record(try pixpipe.run(["info", "--json", file]).outputText)
        let crop = try #require(fields["cleanAperture"] as? [String: Int])
        #expect(crop == ["x": 39, "y": 272, "width": 330, "height": 385])
        #expect(fields["width"] as? Int == 1024 && fields["height"] as? Int == 722)
        #expect(fields["orientation"] as? Int == 5)
        let human = try pixpipe.run(["info", file]).outputText
        #expect(human.contains("clean aperture 330x385 at 39,272"))
        let plain = try record(try pixpipe.run(["info", "--json", Corpora.path("avif/kimono.avif")]).outputText)
        #expect(plain["cleanAperture"] == nil)

        let directory = try TemporaryDirectory()
        let png = directory.path("shown.png")
        let convert = try pixpipe.run(["convert", file, png])
        #expect(convert.status == 0, "\(convert.errors)")
        let shown = try Image(contentsOfFile: png)
        #expect(shown.width == 385 && shown.height == 330)
        let stored = directory.path("stored.png")
        #expect(try pixpipe.run(["convert", file, stored, "--no-orient"]).status == 0)
        let whole = try Image(contentsOfFile: stored)
        #expect(whole.width == 1024 && whole.height == 722)

        let out = directory.path("thumbs")
        let thumbnail = try pixpipe.run([
            "thumbnail", file, "--out", out, "--size", "77", "--format", "png", "--name",
            "{name}-{width}x{height}.{ext}",
        ])
        #expect(thumbnail.status == 0, "\(thumbnail.errors)")
        // 385 x 330 fit into 77: 77 x 66, and the name template planned the same size from the header.
        let small = try Image(contentsOfFile: "\(out)/kimono.mirror-vertical.rotate270.crop-77x66.png")
        #expect(small.width == 77 && small.height == 66)
    }
}
