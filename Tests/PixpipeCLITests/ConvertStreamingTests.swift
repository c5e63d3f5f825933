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
}
