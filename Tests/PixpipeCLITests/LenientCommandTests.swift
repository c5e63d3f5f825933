import Foundation
import Pixpipe
import Testing

/// `--lenient` on `convert` (one file and a batch) and `thumbnail`, and the hint a strict failure gives when lenient decoding would
/// have worked, on truncated files made here.
@Suite("pixpipe --lenient", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct LenientCommandTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A 64x64 photo-like image encoded as `format`, cut to 60 % of its bytes.
    static func truncated(_ format: ImageFormat) throws -> Data {
        let whole = try TestImages.gradient(width: 64, height: 64, layout: .rgb).encoded(
            as: try #require(ImageEncoding.standard(for: format)))
        return whole.prefix(whole.count * 6 / 10)
    }

    @Test(arguments: [ImageFormat.jpeg, .png])
    func convertNamesLenientOnlyWhenItWouldWork(format: ImageFormat) throws {
        let folder = try TemporaryDirectory()
        let input = try folder.write(try Self.truncated(format), to: "cut.\(format.rawValue)")
        let strict = try tool.run(["convert", input, folder.path("out.png")])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("truncated") && strict.errors.contains("--lenient"), "\(strict.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))

        let lenient = try tool.run(["convert", input, folder.path("out.png"), "--lenient"])
        #expect(lenient.status == 0, "\(lenient.errors)")
        let image = try Image(contentsOfFile: folder.path("out.png"))
        #expect(image.width == 64 && image.height == 64)

        // Bytes no decoder gets anything from: no hint.
        let junk = try folder.write(
            Data(try TestImages.gradient().encoded(as: try #require(ImageEncoding.standard(for: format))).prefix(40)),
            to: "junk")
        let hopeless = try tool.run(["convert", junk, folder.path("junk.png")])
        #expect(hopeless.status == 1)
        #expect(!hopeless.errors.contains("--lenient"), "\(hopeless.errors)")
    }

    @Test(arguments: [ImageFormat.jpeg, .png])
    func thumbnailTakesLenient(format: ImageFormat) throws {
        let folder = try TemporaryDirectory()
        let input = try folder.write(try Self.truncated(format), to: "cut.\(format.rawValue)")
        let out = try TemporaryDirectory()
        let strict = try tool.run(["thumbnail", input, "--out", out.url.path, "--size", "32", "--json"])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("--lenient"), "\(strict.errors)")
        let lenient = try tool.run(["thumbnail", input, "--out", out.url.path, "--size", "32", "--lenient"])
        #expect(lenient.status == 0, "\(lenient.errors)")
        #expect(try out.fileNames().contains("cut.jpg"))
    }

    @Test("convert into a folder names --lenient for a truncated input and converts it with the option")
    func batchConvertTakesLenient() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write(try Self.truncated(.jpeg), to: "cut.jpg")
        let input = folder.path("cut.jpg")
        let out = try TemporaryDirectory()
        let strict = try tool.run(["convert", input, out.url.path + "/", "--format", "png"])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("--lenient"), "\(strict.errors)")
        // The records file claims the name; no image is written.
        let names = try out.fileNames().filter { !$0.hasPrefix(".") }
        #expect(names.isEmpty, "\(names)")
        let lenient = try tool.run(["convert", input, out.url.path + "/", "--format", "png", "--lenient"])
        #expect(lenient.status == 0, "\(lenient.errors)")
        #expect(try out.fileNames().contains("cut.png"))
    }
}
