import Foundation
import Pixpipe
import Testing

/// `pixpipe convert INPUT... DIR`: many files and folders into an output folder.
@Suite(
    "pixpipe convert into a folder", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built")
)
struct BatchConvertTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    static func jpeg(width: Int = 40, height: Int = 30) throws -> Data {
        try TestImages.gradient(width: width, height: height, layout: .rgb).encoded(as: .jpeg)
    }

    static func format(_ path: String) throws -> ImageFormat? {
        ImageFormat.sniff(try WholeFile.data(at: URL(fileURLWithPath: path)))
    }

    @Test("Files into a folder named with a trailing slash: created, each input's format kept")
    func filesIntoNewFolderKeepTheirFormats() throws {
        let input = try TemporaryDirectory()
        let a = try input.write(try Self.jpeg(), to: "a.jpg")
        let b = try input.write(try TestImages.png(), to: "b.png")
        let output = try TemporaryDirectory()
        let folder = output.path("out")
        let result = try tool.run(["convert", a, b, folder + "/", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try Self.format(output.path("out/a.jpg")) == .jpeg)
        #expect(try Self.format(output.path("out/b.png")) == .png)
        #expect(result.outputLines.count == 2)
        let records = try result.outputLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let record = try #require(records.first { $0["input"] as? String == a })
        #expect(record["input"] as? String == a)
        #expect(record["output"] as? String == output.path("out/a.jpg"))
        #expect(record["width"] as? Int == 40 && record["height"] as? Int == 30)
        #expect(result.errors.contains("2 converted, 0 failed"))
    }

    @Test("A folder, recursively, into an existing folder with --format: subfolders kept, resized")
    func folderWithFormatKeepsSubfolders() throws {
        let input = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: input.url.appendingPathComponent("photos/2024/june"), withIntermediateDirectories: true)
        try input.write(try Self.jpeg(width: 80, height: 60), to: "photos/top.jpg")
        try input.write(try Self.jpeg(width: 80, height: 60), to: "photos/2024/june/beach.jpg")
        try input.write(try TestImages.png(), to: "photos/2024/logo.png")
        let output = try TemporaryDirectory()
        let result = try tool.run([
            "convert", input.path("photos"), output.url.path, "--format", "webp", "--width", "20",
        ])
        #expect(result.status == 0, "\(result.errors)")
        for name in ["top.webp", "2024/june/beach.webp", "2024/logo.webp"] {
            #expect(try Self.format(output.path(name)) == .webp, "\(name)")
        }
        let info = try Image.info(contentsOfFile: output.path("2024/june/beach.webp"))
        #expect(info.width == 20 && info.height == 15)
        #expect(result.errors.contains("3 converted, 0 failed"))
        // Again: every output exists with the same options, so every one is skipped.
        let again = try tool.run([
            "convert", input.path("photos"), output.url.path, "--format", "webp", "--width", "20",
        ])
        #expect(again.status == 0 && again.errors.contains("0 converted, 0 failed, 3 skipped"), "\(again.errors)")
    }

    @Test("An input in a format only read needs --format: that input fails, the others are written")
    func unwritableInputFormatFails() throws {
        let input = try TemporaryDirectory()
        var frame = TestImages.gradient(width: 8, height: 8, layout: .rgb)
        frame.metadata = ImageMetadata()
        let gifs = ImageFormat.all.filter { $0.canDecode && !$0.canEncode && $0 == ImageFormat(name: "gif") }
        try #require(!gifs.isEmpty, "GIF is written here: nothing to test")
        // The smallest GIF: 1x1, one colour.
        let gif = Data(
            [
                0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x2C, 0, 0, 0,
                0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B,
            ])
        let g = try input.write(gif, to: "dot.gif")
        let j = try input.write(try Self.jpeg(), to: "a.jpg")
        let output = try TemporaryDirectory()
        let result = try tool.run(["convert", g, j, output.url.path, "--json"])
        #expect(result.status == 1)
        #expect(result.outputText.contains("unsupported-output-format"))
        #expect(result.errors.contains("--format"))
        #expect(FileManager.default.fileExists(atPath: output.path("a.jpg")))
    }

    @Test("Two inputs of one name get -2, as thumbnail's do; the single-file form is unchanged")
    func namingAndSingleFile() throws {
        let input = try TemporaryDirectory()
        for folder in ["x", "y"] {
            try FileManager.default.createDirectory(
                at: input.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            try input.write(try Self.jpeg(), to: "\(folder)/pic.jpg")
        }
        let output = try TemporaryDirectory()
        let result = try tool.run([
            "convert", input.path("x/pic.jpg"), input.path("y/pic.jpg"), output.url.path, "--format", "png",
        ])
        #expect(result.status == 0)
        #expect(try output.fileNames() == [".pixpipe-thumbnails.jsonl", "pic-2.png", "pic.png"])
        let single = try tool.run(["convert", input.path("x/pic.jpg"), output.path("one.png")])
        #expect(single.status == 0 && single.errors.isEmpty && single.output.isEmpty)
        #expect(try Self.format(output.path("one.png")) == .png)
    }

    @Test("Standard input into a folder gives DIR/stdin.EXT")
    func standardInputIntoFolder() throws {
        let output = try TemporaryDirectory()
        let result = try tool.run(["convert", "-", output.url.path + "/", "--format", "webp"], input: try Self.jpeg())
        #expect(result.status == 0, "\(result.errors)")
        #expect(try Self.format(output.path("stdin.webp")) == .webp)
    }
}
