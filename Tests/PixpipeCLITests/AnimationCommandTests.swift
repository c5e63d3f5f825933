import Foundation
import Pixpipe
import Testing

/// Animations through `pixpipe convert`, `thumbnail` and `info`, run as processes: a GIF of the GIF suite
/// becomes an animated WebP with its frames, delays and loop count; `--frame` picks one frame; formats that
/// hold one frame get the first, with a note.
@Suite("pixpipe on animations", .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct AnimationCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Four frames of different delays (3.1 s in all), looping forever.
    static let variableDelay = Corpora.path("gif/animated_loop_variable_delay.gif")
    /// Four frames with transparency and the "restore previous" disposal.
    static let transparent = Corpora.path("gif/animated_transparent_frame_restoreprev_loop.gif")

    /// Every frame of the file at `path`.
    static func frames(of path: String) throws -> (frames: [AnimationFrame], loopCount: Int) {
        let reader = try AnimationReader(data: Data(contentsOf: URL(fileURLWithPath: path)))
        return (try reader.allFrames(), reader.loopCount)
    }

    /// Whether two RGBA images are within `tolerance` per sample, ignoring the colour of fully transparent
    /// pixels (an encoder may change what nobody sees).
    static func close(_ a: Image, _ b: Image, tolerance: Int = 2) -> Bool {
        guard a.width == b.width, a.height == b.height, a.pixelFormat == .rgba8, b.pixelFormat == .rgba8 else {
            return false
        }
        for y in 0..<a.height {
            for x in 0..<a.width {
                let alpha = a[x: x, y: y, channel: 3]
                if abs(alpha - b[x: x, y: y, channel: 3]) > tolerance { return false }
                if alpha == 0 { continue }
                for channel in 0..<3
                where abs(a[x: x, y: y, channel: channel] - b[x: x, y: y, channel: channel]) > tolerance {
                    return false
                }
            }
        }
        return true
    }

    @Test(
        "convert anim.gif anim.webp --lossless keeps every frame, delay and the loop count",
        arguments: [
            variableDelay, transparent,
        ])
    func gifToAnimatedWebP(input: String) throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("anim.webp")
        let result = try pixpipe.run(["convert", input, output, "--lossless"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let source = try Self.frames(of: input)
        let written = try Self.frames(of: output)
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: output))) == .webp)
        #expect(written.frames.count == source.frames.count && source.frames.count == 4)
        #expect(written.loopCount == source.loopCount)
        for (gif, webp) in zip(source.frames, written.frames) {
            #expect(webp.duration == gif.duration, "frame \(gif.index)")
            #expect(Self.close(gif.image, webp.image), "frame \(gif.index)")
        }
    }

    @Test("Resizing applies to every frame of the animation")
    func resizedAnimation() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("small.webp")
        let result = try pixpipe.run(["convert", Self.variableDelay, output, "--size", "50"])
        #expect(result.status == 0, "\(result.errors)")
        let written = try Self.frames(of: output)
        #expect(written.frames.count == 4)
        #expect(written.frames.allSatisfy { $0.image.width == 50 && $0.image.height == 50 })
        let delays = try Self.frames(of: Self.variableDelay).frames.map(\.duration)
        #expect(written.frames.map(\.duration) == delays)
    }

    @Test("A format of one frame gets the first frame, with a note naming the frame count")
    func firstFrameWithNote() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("first.png")
        let result = try pixpipe.run(["convert", Self.variableDelay, output])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("has 4 frames; png holds one: wrote the first (use --frame N"))
        let first = try Self.frames(of: Self.variableDelay).frames[0].image
        #expect(try Image(contentsOfFile: output).pixels == first.pixels)
    }

    @Test("--frame N writes frame N alone, in any output format")
    func pickedFrame() throws {
        let directory = try TemporaryDirectory()
        let frames = try Self.frames(of: Self.transparent).frames
        let png = directory.path("third.png")
        let result = try pixpipe.run(["convert", "--frame", "2", Self.transparent, png])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        #expect(try Image(contentsOfFile: png).pixels == frames[2].image.pixels)
        let webp = directory.path("third.webp")
        #expect(try pixpipe.run(["convert", "--frame", "2", "--lossless", Self.transparent, webp]).status == 0)
        let still = try Self.frames(of: webp)
        #expect(still.frames.count == 1)
        #expect(Self.close(still.frames[0].image, frames[2].image))
    }

    @Test("--frame past the last frame is a usage error naming the frame count, and writes nothing")
    func frameOutOfRange() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("none.png")
        let result = try pixpipe.run(["convert", "--frame", "4", Self.variableDelay, output])
        #expect(result.status == 2)
        #expect(result.errors.contains("has 4 frames (0 to 3); --frame 4 is out of range"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let png = try directory.write(TestImages.png(), to: "still.png")
        let still = try pixpipe.run(["convert", "--frame", "1", png, directory.path("still.png")])
        #expect(still.status == 2)
        #expect(still.errors.contains("has 1 frame (0); --frame 1 is out of range"))
    }

    @Test("--lossless is ignored with a warning where the format has no lossless mode beside a lossy one")
    func losslessIgnored() throws {
        let directory = try TemporaryDirectory()
        let result = try pixpipe.run([
            "convert", "--lossless", "--frame", "0", Self.variableDelay, directory.path("a.jpg"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.errors.contains("--lossless only applies to \(ImageFormat.losslessNames) output; ignored for jpeg"))
    }

    @Test("thumbnail --animated writes every frame, resized alike, as an animated WebP")
    func animatedThumbnail() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", "--animated", "--size", "40", Self.variableDelay, "--out", out])
        #expect(result.status == 0, "\(result.errors)")
        let written = try Self.frames(of: out + "/animated_loop_variable_delay.webp")
        let source = try Self.frames(of: Self.variableDelay)
        #expect(written.frames.count == 4 && written.loopCount == source.loopCount)
        #expect(written.frames.allSatisfy { $0.image.width == 40 && $0.image.height == 40 })
        #expect(written.frames.map(\.duration) == source.frames.map(\.duration))
        let still = try pixpipe.run(["thumbnail", Self.variableDelay, "--size", "40", "--out", directory.path("still")])
        #expect(still.status == 0, "\(still.errors)")
        let first = try Self.frames(of: directory.path("still") + "/animated_loop_variable_delay.png")
        #expect(first.frames.count == 1)
    }

    @Test("thumbnail --animated leaves still inputs still and refuses a --format without animation")
    func animatedThumbnailFormats() throws {
        let directory = try TemporaryDirectory()
        let png = try directory.write(TestImages.png(), to: "still.png")
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", "--animated", png, "--out", out])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try directory.fileNames().contains("thumbs"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasSuffix(".webp") })
        let refused = try pixpipe.run(["thumbnail", "--animated", "--format", "png", Self.variableDelay, "--out", out])
        #expect(refused.status == 2)
        #expect(
            refused.errors.contains(
                "expected a format that holds animations with --animated: \(ImageFormat.animationNames)"))
        let avif = try pixpipe.run(["thumbnail", "--animated", "--format", "avif", Self.variableDelay, "--out", out])
        #expect(avif.status == 0, "\(avif.errors)")
        #expect(try Self.frames(of: out + "/animated_loop_variable_delay.avif").frames.count == 4)
    }

    @Test("info --json gives frames, loopCount and durationMs for an animated GIF and WebP")
    func info() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.frames(of: Self.variableDelay)
        let webp = try directory.write(
            ImageEncoding.webpLossless.encodeAnimation(source.frames, loopCount: 3), to: "anim.webp")
        let png = try directory.write(TestImages.png(), to: "still.png")
        let result = try pixpipe.run(["info", "--json", Self.variableDelay, webp, png])
        #expect(result.status == 0, "\(result.errors)")
        let records = try result.outputLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(records.count == 3)
        #expect(records[0]["frames"] as? Int == 4)
        #expect(records[0]["loopCount"] as? Int == 0)
        #expect(records[0]["durationMs"] as? Int == 3100)
        #expect(records[1]["format"] as? String == "webp")
        #expect(records[1]["frames"] as? Int == 4)
        #expect(records[1]["loopCount"] as? Int == 3)
        #expect(records[1]["durationMs"] as? Int == 3100)
        #expect(records[2]["frames"] as? Int == 1)
        #expect(records[2]["loopCount"] == nil && records[2]["durationMs"] == nil)
        let human = try pixpipe.run(["info", Self.variableDelay])
        #expect(human.outputText.contains("4 frames, 3.1 s, looping forever"))
    }
}
