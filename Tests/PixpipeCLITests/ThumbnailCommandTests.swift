import Foundation
import Pixpipe
import Testing

@Suite("pixpipe thumbnail", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct ThumbnailCommandTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A `width` x `height` JPEG photo stand-in, with an EXIF orientation when given.
    static func jpeg(width: Int, height: Int, orientation: Orientation = .up) throws -> Data {
        var image = TestImages.gradient(width: width, height: height, layout: .rgb)
        if orientation != .up {
            image.metadata.orientation = orientation
            image.metadata.exif =
                [
                    0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue),
                    0, 0,
                ]
                + [0, 0, 0, 0]
        }
        return try image.encoded(as: .jpeg)
    }

    static func size(_ path: String) throws -> (Int, Int) {
        let info = try Image.info(contentsOfFile: path)
        return (info.width, info.height)
    }

    @Test func aDirectoryBatchWritesEveryImageAndSkipsOtherFiles() throws {
        let input = try TemporaryDirectory()
        try input.write(try Self.jpeg(width: 400, height: 300), to: "wide.jpg")
        try input.write(try TestImages.png(TestImages.gradient(width: 300, height: 600, layout: .rgb)), to: "tall.png")
        try input.write(Data("notes".utf8), to: "notes.txt")
        try FileManager.default.createDirectory(
            at: input.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try input.write(try TestImages.png(TestImages.gradient(width: 50, height: 40)), to: "sub/alpha.png")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--size", "100"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try output.fileNames() == [".pixpipe-thumbnails.jsonl", "sub", "tall.jpg", "wide.jpg"])
        #expect(try Self.size(output.path("wide.jpg")) == (100, 75))
        #expect(try Self.size(output.path("tall.jpg")) == (50, 100))
        #expect(try Self.size(output.path("sub/alpha.png")) == (50, 40))  // never enlarged; alpha keeps PNG
        #expect(result.errors.contains("3 thumbnails, 0 failed"))
        #expect(!result.errors.contains("\r"))  // no progress bar when standard error is not a terminal
        #expect(result.output.isEmpty)
    }

    @Test func geometryOptions() throws {
        let input = try TemporaryDirectory()
        let photo = try input.write(try Self.jpeg(width: 400, height: 300), to: "photo.jpg")
        let output = try TemporaryDirectory()
        let runs: [([String], (Int, Int))] = [
            (["--size", "120", "--fill"], (120, 120)),
            (["--width", "80"], (80, 60)),
            (["--height", "30"], (40, 30)),
            (["--resize", "200x50", "--filter", "mitchell"], (67, 50)),
            (["--size", "800", "--upscale", "--format", "png"], (800, 600)),
        ]
        for (index, (options, expected)) in runs.enumerated() {
            let result = try tool.run(
                ["thumbnail", photo, "--out", output.path("\(index)")] + options + ["--name", "t.{ext}"])
            #expect(result.status == 0, "\(options): \(result.errors)")
            let ext = options.contains("png") ? "png" : "jpg"
            #expect(try Self.size(output.path("\(index)/t.\(ext)")) == expected, "\(options)")
        }
    }

    @Test func orientationIsAppliedUnlessAskedNotTo() throws {
        let input = try TemporaryDirectory()
        let photo = try input.write(try Self.jpeg(width: 300, height: 200, orientation: .right), to: "phone.jpg")
        let output = try TemporaryDirectory()
        #expect(try tool.run(["thumbnail", photo, "--out", output.path("a"), "--size", "100"]).status == 0)
        let upright = try Image.info(contentsOfFile: output.path("a/phone.jpg"))
        #expect(upright.width == 67 && upright.height == 100 && upright.metadata.orientation == .up)
        #expect(
            try tool.run(["thumbnail", photo, "--out", output.path("b"), "--size", "100", "--no-orient"]).status == 0)
        let stored = try Image.info(contentsOfFile: output.path("b/phone.jpg"))
        #expect(stored.width == 100 && stored.height == 67 && stored.metadata.orientation == .right)
        #expect(try tool.run(["thumbnail", photo, "--out", output.path("c"), "--strip"]).status == 0)
        #expect(try Image.info(contentsOfFile: output.path("c/phone.jpg")).metadata.exif == nil)
    }

    @Test func aCorruptFileFailsAloneAndLeavesNothingBehind() throws {
        let input = try TemporaryDirectory()
        try input.write(try Self.jpeg(width: 200, height: 100), to: "good.jpg")
        let png = try TestImages.png(TestImages.gradient(width: 200, height: 200, layout: .rgb))
        try input.write(png.prefix(png.count / 2), to: "broken.png")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--json", "--jobs", "2"])
        #expect(result.status == 1)
        #expect(try output.fileNames() == [".pixpipe-thumbnails.jsonl", "good.jpg"])  // no partial or temporary file
        #expect(result.errors.contains("broken.png") && result.errors.contains("1 thumbnail, 1 failed"))
        let records = try result.outputLines.map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(records.count == 2)
        let good = records.first { ($0["input"] as? String)?.hasSuffix("good.jpg") == true }
        #expect(good?["width"] as? Int == 200 && good?["height"] as? Int == 100 && (good?["bytes"] as? Int ?? 0) > 0)
        #expect(good?["output"] as? String == output.path("good.jpg"))
        let broken = records.first { ($0["input"] as? String)?.hasSuffix("broken.png") == true }
        #expect((broken?["error"] as? String)?.contains("truncated") == true)
        #expect(broken?["errorKind"] as? String == "truncated-image")
        #expect(good?["errorKind"] == nil)
    }

    @Test func severalWorkersTakeTheLargestInputsFirst() throws {
        // Named to come last: in name order the small ones would be taken first.
        let input = try TemporaryDirectory()
        for name in ["a", "b", "c", "d"] { try input.write(try Self.jpeg(width: 32, height: 24), to: "\(name).jpg") }
        try input.write(try Self.jpeg(width: 1200, height: 900), to: "y.jpg")
        try input.write(try Self.jpeg(width: 1000, height: 800), to: "z.jpg")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--json", "--jobs", "2"])
        #expect(result.status == 0, "\(result.errors)")
        let inputs = try result.outputLines.map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["input"] as? String ?? ""
        }
        #expect(inputs.count == 6)
        // Two workers take two jobs at once, so the first to finish is one of the first two taken.
        let first = URL(fileURLWithPath: inputs.first ?? "").lastPathComponent
        #expect(first == "y.jpg" || first == "z.jpg", "\(inputs)")
    }

    @Test func aNamedFileThatIsNotAnImageIsAnError() throws {
        let input = try TemporaryDirectory()
        let text = try input.write(Data("hello".utf8), to: "hello.jpg")
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", text, input.path("missing.png"), "--out", output.url.path, "--json"])
        #expect(result.status == 1)
        #expect(result.errors.contains("hello.jpg") && result.errors.contains("missing.png"))
        #expect(try output.fileNames().isEmpty)
        let kinds = try result.outputLines.map {
            let record = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            return
                "\(URL(fileURLWithPath: record["input"] as? String ?? "").lastPathComponent) \(record["errorKind"] ?? "")"
        }
        #expect(Set(kinds) == ["hello.jpg not-an-image", "missing.png unreadable-file"])
    }

    @Test func nameTemplatesAndCollisions() throws {
        let input = try TemporaryDirectory()
        for folder in ["a", "b", "c"] {
            try FileManager.default.createDirectory(
                at: input.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try input.write(try Self.jpeg(width: 40, height: 20), to: "a/x.jpg")
        try input.write(try TestImages.png(TestImages.gradient(width: 40, height: 20, layout: .rgb)), to: "b/x.png")
        try input.write(try Self.jpeg(width: 40, height: 20), to: "c/x.jpeg")
        let output = try TemporaryDirectory()
        let result = try tool.run([
            "thumbnail", input.path("a"), input.path("b"), input.path("c"), "--out", output.url.path,
        ])
        #expect(result.status == 0)
        #expect(try output.fileNames() == [".pixpipe-thumbnails.jsonl", "x-2.jpg", "x-3.jpg", "x.jpg"])
        // The same run again keeps the same names: everything is skipped, nothing renamed.
        let again = try tool.run([
            "thumbnail", input.path("a"), input.path("b"), input.path("c"), "--out", output.url.path,
        ])
        #expect(again.status == 0 && again.errors.contains("3 skipped"))
        #expect(try output.fileNames() == [".pixpipe-thumbnails.jsonl", "x-2.jpg", "x-3.jpg", "x.jpg"])

        let named = try TemporaryDirectory()
        let templated = try tool.run(
            [
                "thumbnail", input.path("a/x.jpg"), "--out", named.url.path, "--size", "10", "--name",
                "{name}_{width}x{height}.{ext}",
            ])
        #expect(templated.status == 0)
        #expect(try named.fileNames() == [".pixpipe-thumbnails.jsonl", "x_10x5.jpg"])
    }

    @Test func existingOutputsAreSkippedUnlessOverwriteIsGiven() throws {
        let input = try TemporaryDirectory()
        let photo = try input.write(try Self.jpeg(width: 400, height: 300), to: "photo.jpg")
        let output = try TemporaryDirectory()
        #expect(try tool.run(["thumbnail", photo, "--out", output.url.path, "--size", "100"]).status == 0)
        let skipped = try tool.run(["thumbnail", photo, "--out", output.url.path, "--size", "100", "--json"])
        #expect(skipped.status == 0 && skipped.errors.contains("--overwrite"))
        #expect(skipped.outputText.contains("\"skipped\":true"))
        #expect(try Self.size(output.path("photo.jpg")) == (100, 75))
        let replaced = try tool.run(["thumbnail", photo, "--out", output.url.path, "--size", "50", "--overwrite"])
        #expect(replaced.status == 0)
        #expect(try Self.size(output.path("photo.jpg")) == (50, 38))
    }

    @Test(arguments: [
        ["thumbnail", "x.jpg"],
        ["thumbnail", "--out", "o"],
        ["thumbnail", "x.jpg", "--out", "o", "--size", "0"],
        ["thumbnail", "x.jpg", "--out", "o", "--size", "10", "--width", "5"],
        ["thumbnail", "x.jpg", "--out", "o", "--name", "{foo}.{ext}"],
        ["thumbnail", "x.jpg", "--out", "o", "--name", "a/{name}"],
        ["thumbnail", "x.jpg", "--out", "o", "--filter", "sharp"],
        ["thumbnail", "x.jpg", "--out", "o", "--format", "gif"],
        ["thumbnail", "x.jpg", "--out", "o", "--jobs", "0"],
        ["convert", "x.jpg", "y.png", "--resize", "10y5"],
    ])
    func usageErrorsExitWithTwo(_ arguments: [String]) throws {
        let scratch = try TemporaryDirectory()
        let result = try tool.run(arguments, in: scratch.url)
        #expect(result.status == 2, "\(result.errors)")
        #expect(try scratch.fileNames().isEmpty)
    }

    @Test func convertResizesThroughTheSameGeometry() throws {
        let input = try TemporaryDirectory()
        let photo = try input.write(try Self.jpeg(width: 300, height: 200, orientation: .right), to: "phone.jpg")
        let result = try tool.run(["convert", photo, input.path("out.png"), "--size", "90", "--fill"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try Self.size(input.path("out.png")) == (90, 90))
        #expect(try tool.run(["convert", photo, input.path("w.png"), "--width", "50"]).status == 0)
        #expect(try Self.size(input.path("w.png")) == (50, 75))
    }
}
