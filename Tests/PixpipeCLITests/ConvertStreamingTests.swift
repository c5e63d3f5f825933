import Foundation
import Pixpipe
import Testing

/// `pixpipe convert` streams rows from decoder to encoder where no step needs the whole image: run as a
/// process, its peak memory stays near one band of rows, its output is the whole-image path's, and an input
/// cut short leaves nothing behind.
@Suite("pixpipe convert: rows streamed in bounded memory")
struct ConvertStreamingTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// A `width` x `height` RGB PNG of smooth ramps, at compression 1 so the debug build makes it quickly.
    static func largePNG(width: Int, height: Int) throws -> Data {
        let rowBytes = width * 3
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<rowBytes { pixels[y * rowBytes + x] = UInt8(truncatingIfNeeded: x / 3 &+ y) }
        }
        let image = Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        return try image.encoded(as: .png(PNGEncodeOptions(compressionLevel: 1)))
    }

    @Test("A 6000x4000 PNG to PAM peaks below 1.5x its pixels (the child's own peak RSS)")
    func largePNGToPAMInBoundedMemory() throws {
        let (width, height) = (6000, 4000)
        let directory = try TemporaryDirectory()
        let input = try directory.write(try Self.largePNG(width: width, height: height), to: "large.png")
        let run = ChildProcessPeak.run(pixpipe.url.path, ["convert", input, directory.path("large.pam")])
        #expect(run.status == 0)
        let pixelBytes = width * height * 3
        #expect(
            try FileManager.default.attributesOfItem(atPath: directory.path("large.pam"))[.size] as? Int ?? 0
                > pixelBytes)
        // The whole-image path holds the decoded pixels and the encoded file (over 2x); under a sanitizer
        // the shadow memory adds its own share.
        let bound = ChildProcessUsage.isSanitized ? 3 * pixelBytes : pixelBytes * 3 / 2
        #expect(run.peakBytes > 0 && run.peakBytes < bound, "child peak RSS \(run.peakMiB) MiB")
    }

    @Test("The streamed output is the whole-image path's (PNG, PAM, PPM), with nothing else left in the folder")
    func streamedOutputMatchesTheLibrary() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(try Self.largePNG(width: 300, height: 200), to: "in.png")
        let image = try Image(contentsOfFile: input)
        for (name, encoding) in [("out.png", ImageEncoding.png), ("out.pam", .pam), ("out.ppm", .ppm)] {
            let result = try pixpipe.run(["convert", input, directory.path(name)])
            #expect(result.status == 0, "\(result.errors)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: directory.path(name))) == (try image.encoded(as: encoding)))
        }
        #expect(try directory.fileNames() == ["in.png", "out.pam", "out.png", "out.ppm"])
    }

    @Test("An input cut short midway: status 1, no output, no temporary file; --lenient writes what was whole")
    func truncatedInput() throws {
        let directory = try TemporaryDirectory()
        let png = try Self.largePNG(width: 400, height: 300)
        let input = try directory.write(png.prefix(png.count / 2), to: "cut.png")
        let result = try pixpipe.run(["convert", input, directory.path("out.pam")])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("pixpipe: convert: \(input): "))
        #expect(result.errors.contains("--lenient"))
        #expect(try directory.fileNames() == ["cut.png"])
        let lenient = try pixpipe.run(["convert", input, directory.path("out.pam"), "--lenient"])
        #expect(lenient.status == 0)
        #expect(lenient.errors.contains("warning"))
        #expect(try directory.fileNames() == ["cut.png", "out.pam"])
    }

    @Test("A batch streams each file as one file would: bounded peak, same bytes, a cut input leaves nothing")
    func batchStreams() throws {
        let (width, height) = (4000, 3000)
        let directory = try TemporaryDirectory()
        let png = try Self.largePNG(width: width, height: height)
        let first = try directory.write(png, to: "a.png")
        let second = try directory.write(png, to: "b.png")
        let cut = try directory.write(png.prefix(png.count / 2), to: "cut.png")
        let out = directory.path("out")
        let run = ChildProcessPeak.run(
            pixpipe.url.path, ["convert", first, second, cut, out + "/", "--format", "pam", "-j", "2"])
        // One input failed: status 1, the others written whole.
        #expect(run.status == 1)
        let expected = try Image(data: png).encoded(as: .pam)
        for name in ["a.pam", "b.pam"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == expected, "\(name)")
        }
        // Nothing of the cut input, not even a temporary file (the batch's record of sources stays).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
                ".pixpipe-thumbnails.jsonl", "a.pam", "b.pam",
            ])
        // Two files at once, each held whole with its encoding, would add over 4x one image's pixels to what
        // the same batch of tiny files costs; streamed, under half an image's pixels (the lenient hint for the
        // cut file reads it row by row too). Under a sanitizer its shadow memory adds a share.
        let tiny = try directory.write(try Self.largePNG(width: 4, height: 4), to: "tiny.png")
        let baseline = ChildProcessPeak.run(
            pixpipe.url.path, ["convert", tiny, tiny, directory.path("tiny") + "/", "--format", "pam", "-j", "2"])
        #expect(baseline.status == 0)
        let pixelBytes = width * height * 3
        let bound = ChildProcessUsage.isSanitized ? 3 * pixelBytes : pixelBytes / 2
        #expect(
            run.peakBytes > 0 && run.peakBytes - baseline.peakBytes < bound,
            "child peak RSS \(run.peakMiB) MiB, \(baseline.peakMiB) MiB for tiny files")
    }
}
