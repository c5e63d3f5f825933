import Foundation
import Testing

/// `--max-frames` (`convert`, `thumbnail --animated`) and `thumbnail --max-source-pixels`: the frame limit
/// (10,000) and the thumbnailer's source limit (1 gigapixel, which holds even when the decode is reduced)
/// have options; an input over one fails alone with its `errorKind`.
@Suite(
    "pixpipe convert and thumbnail: --max-frames and --max-source-pixels",
    .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct FrameAndSourceLimitTests {
    let pixpipe: PixpipeExecutable
    let directory: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        directory = try TemporaryDirectory()
    }

    /// Four frames.
    static let animation = Corpora.path("gif/animated_loop_variable_delay.gif")

    /// The `errorKind` of each record of a `--json` run, or `ok` for a thumbnail written.
    func kinds(_ result: PixpipeExecutable.Result) throws -> [String] {
        try result.outputLines.map {
            let record = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            return record["errorKind"] as? String ?? "ok"
        }
    }

    @Test("convert --max-frames: four frames are refused at 3 with no output, kept at 4 and with 0")
    func convertFrames() throws {
        let refused = try pixpipe.run(["convert", Self.animation, directory.path("three.webp"), "--max-frames", "3"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("frames"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("three.webp")))
        for limit in ["4", "0"] {
            let kept = try pixpipe.run([
                "convert", Self.animation, directory.path("\(limit).webp"), "--max-frames", limit,
            ])
            #expect(kept.status == 0, "--max-frames \(limit): \(kept.errors)")
        }
    }

    @Test("thumbnail --animated --max-frames: too-many-frames at 3, written at 4")
    func thumbnailFrames() throws {
        let options = ["--out", directory.path("thumbs"), "--animated", "--size", "16", "--json", "--overwrite"]
        let refused = try pixpipe.run(["thumbnail", Self.animation, "--max-frames", "3"] + options)
        #expect(refused.status == 1)
        #expect(try kinds(refused) == ["too-many-frames"])
        let kept = try pixpipe.run(["thumbnail", Self.animation, "--max-frames", "4"] + options)
        #expect(kept.status == 0)
        #expect(try kinds(kept) == ["ok"])
    }

    @Test("thumbnail --max-source-pixels: refused from the header one pixel over, made at the limit and with 0")
    func sourcePixels() throws {
        // 16 x 8: 128 pixels.
        let input = try directory.write(try TestImages.png(), to: "in.png")
        let options = ["--out", directory.path("thumbs"), "--size", "4", "--json", "--overwrite"]
        let refused = try pixpipe.run(["thumbnail", input, "--max-source-pixels", "127"] + options)
        #expect(refused.status == 1)
        #expect(try kinds(refused) == ["too-large-source"])
        for limit in ["128", "0"] {
            let made = try pixpipe.run(["thumbnail", input, "--max-source-pixels", limit] + options)
            #expect(try kinds(made) == ["ok"], "--max-source-pixels \(limit)")
        }
        let usage = try pixpipe.run(["thumbnail", input, "--max-source-pixels", "-1"] + options)
        #expect(usage.status == 2)
        #expect(usage.errors.contains("invalid value '-1' for '--max-source-pixels'"))
    }
}
