import Foundation
import Pixpipe
import Testing

/// Batch commands over folders: every file that looks like an image is reported as done, failed or
/// skipped with its reason; other files stay quiet.
@Suite(
    "thumbnail and convert: nothing that looks like an image is skipped in silence",
    .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct NothingSkippedSilentlyTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A folder of two readable photos, four files that look like images but are not read, one with a
    /// photo's name and no image's bytes, and two files that are no images.
    static func mixedFolder() throws -> TemporaryDirectory {
        let input = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: input.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try input.write(try TestImages.png(TestImages.gradient(width: 40, height: 30, layout: .rgb)), to: "a.png")
        try input.write(
            try TestImages.gradient(width: 40, height: 30, layout: .rgb).encoded(as: .jpeg), to: "sub/b.jpg")
        try input.write(Data("BM".utf8) + Data(count: 60), to: "scan.bmp")  // BMP signature
        try input.write(Data("8BPS".utf8) + Data(count: 60), to: "sub/layers.psd")  // Photoshop signature
        try input.write(Data(repeating: 7, count: 100), to: "IMG_0001.CR3")  // a raw kind, by its extension
        try input.write(Data(), to: "empty.jpg")
        try input.write(Data("not a photo at all".utf8), to: "fake.jpg")
        try input.write(Data("notes".utf8), to: "notes.txt")
        try input.write(Data([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]), to: ".DS_Store")
        return input
    }

    /// Each input's file name and what its `--json` record says: `done`, `failed:KIND` or `skipped:REASON`.
    static func outcomes(_ result: PixpipeExecutable.Result) throws -> [String: String] {
        var outcomes: [String: String] = [:]
        for line in result.outputLines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = URL(fileURLWithPath: try #require(record["input"] as? String)).lastPathComponent
            if let kind = record["errorKind"] as? String {
                outcomes[name] = "failed:\(kind)"
            } else if let reason = record["reason"] as? String {
                outcomes[name] = "skipped:\(reason)"
            } else {
                outcomes[name] = record["bytes"] != nil ? "done" : "other"
            }
        }
        return outcomes
    }

    static let expected = [
        "a.png": "done", "b.jpg": "done", "scan.bmp": "skipped:BMP image: not supported",
        "layers.psd": "skipped:Photoshop image: not supported",
        "IMG_0001.CR3": "skipped:Canon raw image: not supported",
        "empty.jpg": "skipped:empty file, not an image", "fake.jpg": "failed:not-an-image",
    ]

    @Test("thumbnail: each image-like file has a record, the summary counts each, the exit status is 1")
    func thumbnailReportsEveryImageLikeFile() throws {
        let input = try Self.mixedFolder()
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--size", "16", "--json"])
        #expect(result.status == 1)
        #expect(try Self.outcomes(result) == Self.expected)
        #expect(result.errors.contains("2 thumbnails, 1 failed, 4 unsupported"), "\(result.errors)")
        #expect(result.errors.contains("scan.bmp: skipped: BMP image: not supported"))
        #expect(!result.errors.contains("notes.txt") && !result.errors.contains(".DS_Store"))
    }

    @Test("convert into a folder reports them the same way")
    func convertReportsEveryImageLikeFile() throws {
        let input = try Self.mixedFolder()
        let output = try TemporaryDirectory()
        let result = try tool.run(["convert", input.url.path, output.url.path + "/", "--format", "png", "--json"])
        #expect(result.status == 1)
        #expect(try Self.outcomes(result) == Self.expected)
        #expect(result.errors.contains("2 converted, 1 failed, 4 unsupported"), "\(result.errors)")
    }

    @Test("A folder of only readable images and other files exits 0 and names no other file")
    func otherFilesStayQuiet() throws {
        let input = try TemporaryDirectory()
        try input.write(try TestImages.png(), to: "a.png")
        try input.write(Data("notes".utf8), to: "notes.txt")
        try input.write(Data(), to: "empty.log")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--json"])
        #expect(result.status == 0)
        #expect(result.outputLines.count == 1)
        #expect(result.errors.contains("1 thumbnail, 0 failed in"))
    }

    @Test("A named file of a kind not read is an error that says which kind")
    func namedUnsupportedFileSaysWhy() throws {
        let input = try TemporaryDirectory()
        let bmp = try input.write(Data("BM".utf8) + Data(count: 60), to: "scan.bmp")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", bmp, "--out", output.url.path, "--json"])
        #expect(result.status == 1)
        #expect(result.errors.contains("BMP image: not supported"))
        #expect(result.outputText.contains("\"errorKind\":\"not-an-image\""))
    }
}
