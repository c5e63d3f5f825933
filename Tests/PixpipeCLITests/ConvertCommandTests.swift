import Foundation
import Pixpipe
import Testing

// End to end through the real PNG and JPEG codecs (branches `png` and `jpeg`): these need them merged.
@Suite("pixpipe convert: end to end")
struct ConvertCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    @Test("PNG to JPEG by extension, then info reads the JPEG back")
    func pngToJPEGToInfo() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(), to: "in.png")
        let output = directory.path("out.jpg")
        let convert = try pixpipe.run(["convert", input, output, "--quality", "90", "--progressive"])
        #expect(convert.status == 0)
        #expect(convert.output.isEmpty)
        #expect(convert.errors.isEmpty)
        #expect(try directory.fileNames() == ["in.png", "out.jpg"])

        let info = try pixpipe.run(["info", "--json", output])
        #expect(info.status == 0)
        let record = try #require(
            JSONSerialization.jsonObject(with: Data(info.outputText.utf8)) as? [String: Any])
        #expect(record["path"] as? String == output)
        #expect(record["format"] as? String == "jpeg")
        #expect(record["width"] as? Int == 16)
        #expect(record["height"] as? Int == 8)
        #expect(record["channels"] as? Int == 3)
        #expect(record["bitDepth"] as? Int == 8)
        #expect(record["orientation"] as? Int == 1)
        #expect(record["interlaced"] as? Bool == true)
        #expect(record["iccProfileBytes"] as? Int == 0)
    }

    @Test("Human-readable info is one line per file")
    func infoLine() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(), to: "in.png")
        let result = try pixpipe.run(["info", input, input])
        #expect(result.status == 0)
        let line = "\(input): png 16x8 rgba8, 8-bit, not interlaced, orientation 1 (upright), no ICC"
        #expect(result.outputLines == [line, line])
    }

    @Test("PPM composites alpha over white; PAM keeps it; both exact")
    func netpbmThroughTheTool() throws {
        let directory = try TemporaryDirectory()
        let source = TestImages.gradient()
        let input = try directory.write(TestImages.png(source), to: "in.png")
        #expect(try pixpipe.run(["convert", input, directory.path("out.ppm")]).status == 0)
        #expect(try pixpipe.run(["convert", input, directory.path("out.pam")]).status == 0)
        let ppm = try #require(NetpbmFile(Data(contentsOf: directory.url.appendingPathComponent("out.ppm"))))
        let pam = try #require(NetpbmFile(Data(contentsOf: directory.url.appendingPathComponent("out.pam"))))
        #expect((ppm.magic, ppm.width, ppm.height, ppm.maxValue) == ("P6", 16, 8, 255))
        #expect((pam.magic, pam.depth, pam.tupleType) == ("P7", 4, "RGB_ALPHA"))
        #expect(pam.samples == source.pixels)
        #expect([0, 1, 2].map { ppm.sample(x: 0, y: 0, channel: $0) } == [255, 255, 255])
        #expect([0, 1, 2].map { ppm.sample(x: 15, y: 7, channel: $0) } == [255, 255, 100])
    }

    @Test("16-bit samples are kept in netpbm by default (--keep-16-bit still accepted); --depth 8 reduces to 8")
    func sixteenBit() throws {
        let directory = try TemporaryDirectory()
        let wide = TestImages.gradient(layout: .gray).converted(to: PixelFormat(layout: .gray, bitsPerSample: 16))
        let input = try directory.write(TestImages.png(wide), to: "in16.png")
        let kept = try pixpipe.run(["convert", input, "-", "--format", "ppm"])
        let keptAsBefore = try pixpipe.run(["convert", "--keep-16-bit", input, "-", "--format", "ppm"])
        #expect(keptAsBefore.output == kept.output)
        let reduced = try pixpipe.run(["convert", input, "-", "--format=ppm", "--depth", "8"])
        #expect(kept.status == 0 && reduced.status == 0)
        let keptFile = try #require(NetpbmFile(kept.output))
        let reducedFile = try #require(NetpbmFile(reduced.output))
        #expect((keptFile.magic, keptFile.maxValue, keptFile.samples.count) == ("P5", 65535, 16 * 8 * 2))
        #expect((reducedFile.magic, reducedFile.maxValue, reducedFile.samples.count) == ("P5", 255, 16 * 8))
    }

    @Test("Standard input to standard output: PNG in, PNG out, same pixels")
    func piping() throws {
        let source = TestImages.gradient()
        let result = try pixpipe.run(["convert", "-", "-", "-f", "png"], input: TestImages.png(source))
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
        #expect(try Image(data: result.output).pixels == source.pixels)
    }

    @Test("--max-pixels refuses a larger image with status 1 and writes nothing; 0 lifts the limit")
    func pixelLimit() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(), to: "in.png")
        let refused = try pixpipe.run(["convert", "--max-pixels", "100", input, directory.path("out.png")])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("image too large: 16x8 is over the limit of 100 pixels"))
        #expect(try directory.fileNames() == ["in.png"])
        let lifted = try pixpipe.run(["convert", "--max-pixels", "0", input, directory.path("out.png")])
        #expect(lifted.status == 0)
    }

    @Test("Truncated JPEG: strict fails and leaves nothing; --lenient converts with a warning on stderr")
    func truncatedJPEG() throws {
        let directory = try TemporaryDirectory()
        let jpeg = try TestImages.gradient(width: 64, height: 64, layout: .rgb).encoded(as: .jpeg(quality: 90))
        let input = try directory.write(jpeg.prefix(jpeg.count / 2), to: "cut.jpg")
        let strict = try pixpipe.run(["convert", input, directory.path("out.png")])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("truncated jpeg data"))
        #expect(try directory.fileNames() == ["cut.jpg"])

        let lenient = try pixpipe.run(["convert", "--lenient", input, directory.path("out.png")])
        #expect(lenient.status == 0)
        #expect(lenient.errors.hasPrefix("pixpipe: warning: \(input): truncated"))
        #expect(try directory.fileNames() == ["cut.jpg", "out.png"])
    }

    @Test("An ignored option is a warning, not an error")
    func ignoredQuality() throws {
        let result = try pixpipe.run(["convert", "-", "-", "-f", "png", "-q", "50"], input: TestImages.png())
        #expect(result.status == 0)
        // The formats named are the codec table's lossy ones (JPEG, AVIF, ...).
        let names = ImageFormat.qualityNames
        #expect(result.errors == "pixpipe: warning: --quality only applies to \(names) output; ignored for png\n")
    }
}
