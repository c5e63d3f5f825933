import Foundation
import Pixpipe
import Testing

/// `pixpipe info`, `convert` and `thumbnail` on GIFs, run as processes, through the codec table with no CLI
/// change: the GIF suite's files, a cut file, and a GIF declaring 100,000 frames.
@Suite("pixpipe on GIF", .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct GIFCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    static let animated = Corpora.path("gif/animated_transparent_frame_restoreprev_loop.gif")

    /// A 1x1 GIF with `frames` 1x1 frames, each a clear code, one literal and the end code.
    static func manyFrames(_ frames: Int) -> Data {
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        // Image descriptor at (0, 0), 1x1, no local table; LZW code size 2: codes 4 (clear), 1, 5 (end).
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        for _ in 0..<frames { bytes += frame }
        return Data(bytes + [0x3B])
    }

    @Test("info reads the canvas; --json gives the format and size")
    func info() throws {
        let result = try pixpipe.run(["info", "--json", Self.animated])
        #expect(result.status == 0, "\(result.errors)")
        let record = try #require(JSONSerialization.jsonObject(with: Data(result.outputText.utf8)) as? [String: Any])
        #expect(record["format"] as? String == "gif")
        #expect(record["width"] as? Int == 100 && record["height"] as? Int == 100)
        #expect(record["channels"] as? Int == 4 && record["alpha"] as? Bool == true)
        let human = try pixpipe.run(["info", Self.animated])
        #expect(human.outputText.hasPrefix("\(Self.animated): gif 100x100 rgba8, 8-bit"))
    }

    @Test("convert writes the first frame as PNG, exactly")
    func convert() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out.png")
        let result = try pixpipe.run(["convert", Self.animated, output])
        #expect(result.status == 0, "\(result.errors)")
        let png = try Image(contentsOfFile: output)
        let first = try Image(contentsOfFile: Self.animated)
        #expect(png.width == 100 && png.pixelFormat == .rgba8)
        #expect(png.pixels == first.pixels)
    }

    @Test("thumbnail makes a PNG of the first frame")
    func thumbnail() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", Self.animated, "--size", "40", "--out", out])
        #expect(result.status == 0, "\(result.errors)")
        let thumbnail = try Image(contentsOfFile: out + "/animated_transparent_frame_restoreprev_loop.png")
        #expect(thumbnail.width == 40 && thumbnail.height == 40)
    }

    @Test("A cut GIF fails strictly as truncated and converts with --lenient")
    func truncated() throws {
        let directory = try TemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.animated))
        let input = try directory.write(whole.prefix(whole.count - 40), to: "cut.gif")
        let strict = try pixpipe.run(["convert", input, directory.path("strict.png")])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("truncated gif data"))
        let lenient = try pixpipe.run(["convert", "--lenient", input, directory.path("lenient.png")])
        #expect(lenient.status == 0, "\(lenient.errors)")
        let trailerless = try directory.write(whole.dropLast(), to: "no-trailer.gif")
        #expect(try pixpipe.run(["convert", trailerless, directory.path("whole.png")]).status == 0)
    }

    @Test("A GIF of 100,000 frames is refused in under a second and 100 MB")
    func hundredThousandFrames() throws {
        let executable = try #require(PixpipeExecutable.built)
        let directory = try TemporaryDirectory()
        let input = try directory.write(Self.manyFrames(100_000), to: "frames.gif")
        let usage = try ChildProcessUsage.measure(executable.url, ["convert", input, directory.path("out.png")])
        #expect(usage.status == 1)
        #expect(usage.errors.contains("animation too long"))
        #expect(usage.cpuTime < (ChildProcessUsage.isSanitized ? .seconds(20) : .seconds(1)))
        #expect(usage.elapsed < ChildProcessUsage.hangLimit)
        if !ChildProcessUsage.isSanitized { #expect(usage.peakResidentBytes < 100 << 20) }
    }
}
