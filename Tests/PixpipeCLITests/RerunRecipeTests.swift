import Foundation
import Pixpipe
import Testing

/// Reruns of `thumbnail` and batch `convert` redo the outputs whose options changed, and only those.
@Suite(
    "Reruns honour changed options", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built")
)
struct RerunRecipeTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A folder of three photos.
    static func photos() throws -> TemporaryDirectory {
        let input = try TemporaryDirectory()
        for name in ["a", "b", "c"] {
            try input.write(
                try TestImages.gradient(width: 400, height: 300, layout: .rgb).encoded(as: .jpeg), to: "\(name).jpg")
        }
        return input
    }

    static func width(_ path: String) throws -> Int { try Image.info(contentsOfFile: path).width }

    @Test("thumbnail --size 128 after --size 64: all three redone, replaced; the same options again: skipped")
    func thumbnailSizeChangeRedoes() throws {
        let input = try Self.photos()
        let output = try TemporaryDirectory()
        let run = { (size: String) in
            try tool.run(["thumbnail", input.url.path, "--out", output.url.path, "--size", size, "--json"])
        }
        #expect(try run("64").status == 0)
        #expect(try Self.width(output.path("a.jpg")) == 64)
        let redone = try run("128")
        #expect(redone.status == 0)
        #expect(redone.errors.contains("3 thumbnails, 0 failed, 3 redone (options changed)"), "\(redone.errors)")
        #expect(redone.outputLines.allSatisfy { $0.contains("\"redone\":true") })
        for name in ["a", "b", "c"] { #expect(try Self.width(output.path("\(name).jpg")) == 128) }
        let same = try run("128")
        #expect(same.status == 0 && same.errors.contains("0 thumbnails, 0 failed, 3 skipped"), "\(same.errors)")
        // Back to 64: the last recipe recorded is the one compared.
        let back = try run("64")
        #expect(back.errors.contains("3 redone (options changed)"))
        #expect(try Self.width(output.path("b.jpg")) == 64)
    }

    @Test("A changed format option (quality, strip) redoes; an output from before recipes is skipped as before")
    func encodingChangeAndOldRecords() throws {
        let input = try Self.photos()
        let output = try TemporaryDirectory()
        let base = ["thumbnail", input.url.path, "--out", output.url.path, "--size", "64"]
        #expect(try tool.run(base).status == 0)
        let before = try WholeFile.data(at: URL(fileURLWithPath: output.path("a.jpg")))
        let lower = try tool.run(base + ["--quality", "30"])
        #expect(lower.errors.contains("3 redone (options changed)"))
        #expect(try WholeFile.data(at: URL(fileURLWithPath: output.path("a.jpg"))) != before)

        // A records file from an older version: names and sources only, no recipes.
        let records = output.path(".pixpipe-thumbnails.jsonl")
        let old =
            try String(decoding: WholeFile.data(at: URL(fileURLWithPath: records)), as: UTF8.self)
            .split(separator: "\n").filter { !$0.contains("\"recipe\"") }.joined(separator: "\n") + "\n"
        try Data(old.utf8).write(to: URL(fileURLWithPath: records))
        let unknown = try tool.run(base + ["--size", "32"])
        #expect(unknown.status == 0 && unknown.errors.contains("3 skipped") && unknown.errors.contains("--overwrite"))
        // Once written with --overwrite, the recipe is known again.
        #expect(try tool.run(base + ["--size", "32", "--overwrite"]).status == 0)
        #expect(try tool.run(base + ["--size", "48"]).errors.contains("3 redone (options changed)"))
    }

    @Test("convert into a folder: a new --quality redoes; the same options skip")
    func convertRedoes() throws {
        let input = try Self.photos()
        let output = try TemporaryDirectory()
        let base = ["convert", input.url.path, output.url.path, "--format", "webp"]
        #expect(try tool.run(base).status == 0)
        #expect(try tool.run(base).errors.contains("0 converted, 0 failed, 3 skipped"))
        let redone = try tool.run(base + ["--quality", "40"])
        #expect(redone.status == 0 && redone.errors.contains("3 converted, 0 failed, 3 redone (options changed)"))
    }

    @Test("--overwrite with the same options rewrites the files but adds no records")
    func sameRecipeAddsNoRecords() throws {
        let input = try Self.photos()
        let output = try TemporaryDirectory()
        let base = ["thumbnail", input.url.path, "--out", output.url.path, "--size", "64"]
        #expect(try tool.run(base).status == 0)
        let records = URL(fileURLWithPath: output.path(".pixpipe-thumbnails.jsonl"))
        let before = try WholeFile.data(at: records)
        #expect(try tool.run(base + ["--overwrite"]).errors.contains("3 thumbnails, 0 failed"))
        #expect(try WholeFile.data(at: records) == before)
    }

    @Test("A new --background or --keep-location redoes thumbnails; a new --background redoes conversions")
    func backgroundAndLocationRedo() throws {
        let input = try Self.photos()
        let output = try TemporaryDirectory()
        let base = ["thumbnail", input.url.path, "--out", output.url.path, "--size", "64"]
        #expect(try tool.run(base).status == 0)
        #expect(try tool.run(base + ["--background", "red"]).errors.contains("3 redone (options changed)"))
        #expect(try tool.run(base + ["--background", "red"]).errors.contains("3 skipped"))
        #expect(try tool.run(base + ["--background", "blue"]).errors.contains("3 redone (options changed)"))
        #expect(try tool.run(base + ["--keep-location"]).errors.contains("3 redone (options changed)"))

        let converted = try TemporaryDirectory()
        let convert = ["convert", input.url.path, converted.url.path, "--format", "png"]
        #expect(try tool.run(convert).status == 0)
        #expect(try tool.run(convert + ["--background", "#ff000080"]).errors.contains("3 redone (options changed)"))
    }
}
