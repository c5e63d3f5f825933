import Foundation
import Testing

/// `--max-bytes` of `convert` and `thumbnail`: the input's size limit (256 MiB by default) has an option,
/// checked before decoding, for files and standard input alike, and an input over it fails alone.
@Suite("pixpipe convert and thumbnail: --max-bytes")
struct InputByteLimitTests {
    let pixpipe: PixpipeExecutable
    let directory: TemporaryDirectory
    let input: String
    let size: Int

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        directory = try TemporaryDirectory()
        let png = try TestImages.png()
        size = png.count
        input = try directory.write(png, to: "in.png")
    }

    @Test("convert: one byte over the limit is refused with no output; at the limit, with K or with 0 it converts")
    func convert() throws {
        let refused = try pixpipe.run(["convert", input, directory.path("out.jpg"), "--max-bytes", "\(size - 1)"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("input too large: \(size) bytes is over the limit of \(size - 1)"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.jpg")))
        let piped = try pixpipe.run(
            ["convert", "-", directory.path("piped.jpg"), "--max-bytes", "\(size - 1)"],
            input: try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(piped.status == 1)
        #expect(piped.errors.contains("input too large"))
        for limit in ["\(size)", "1K", "0"] {
            let result = try pixpipe.run(["convert", input, directory.path("out-\(limit).jpg"), "--max-bytes", limit])
            #expect(result.status == 0, "--max-bytes \(limit): \(result.errors)")
        }
    }

    @Test("thumbnail: an input over the limit fails alone, the others are made")
    func thumbnail() throws {
        let large = try directory.write(
            Data(contentsOf: URL(fileURLWithPath: input)) + Data(count: 2_000), to: "large.png")
        let result = try pixpipe.run([
            "thumbnail", input, large, "--out", directory.path("thumbs"), "--size", "8", "--max-bytes", "1K", "--json",
        ])
        #expect(result.status == 1)
        #expect(result.outputText.contains(#""errorKind":"input-too-large""#))
        // The thumbnail, and the record of which source it was made from.
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.path("thumbs")))
                == ["in.png", ".pixpipe-thumbnails.jsonl"])
    }

    @Test("Malformed or negative values are usage errors", arguments: ["-1", "1x", "K", "99999999999G"])
    func usage(value: String) throws {
        for command in [
            ["convert", input, directory.path("x.png")], ["thumbnail", input, "--out", directory.path("t")],
        ] {
            let result = try pixpipe.run(command + ["--max-bytes", value])
            #expect(result.status == 2, "\(command[0]) --max-bytes \(value)")
            #expect(result.errors.contains("invalid value '\(value)' for '--max-bytes'"))
        }
    }
}
