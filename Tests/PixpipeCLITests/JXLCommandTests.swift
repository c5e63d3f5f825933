import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// JPEG XL through the command line, run as a process: info, convert both ways, lossless JPEG
/// recompression and back, thumbnail, fetch, and bombs refused fast and small.
@Suite("pixpipe on JPEG XL: info, convert, --lossless-jpeg, thumbnail, fetch, bombs", .serialized)
struct JXLCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Parses the single JSON record of `info --json`.
    private func record(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A lossless JPEG XL animation of `count` frames of 100 ms, made with the library.
    private func animation(count: Int) throws -> Data {
        let frames = (0..<count).map { index in
            var image = TestImages.gradient(width: 24, height: 16)
            for x in 0..<24 { image[x: x, y: index, channel: 1] = 255 }  // each frame its own
            return AnimationFrame(index: index, image: image, duration: .milliseconds(100 + index))
        }
        return try ImageEncoding.jxl(JXLEncodeOptions(lossless: true, effort: 1)).encodeAnimation(frames, loopCount: 2)
    }

    @Test("--effort N writes what the library writes at effort N; it is checked and ignored with a note elsewhere")
    func effort() throws {
        let directory = try TemporaryDirectory()
        let image = TestImages.gradient(width: 64, height: 48, layout: .rgb)
        let input = try directory.write(TestImages.png(image), to: "in.png")
        for effort in [1, 9] {
            let output = directory.path("e\(effort).jxl")
            let run = try pixpipe.run(["convert", input, output, "--effort", String(effort)])
            #expect(run.status == 0, "\(run.errors)")
            let library = try Image(contentsOfFile: input).encoded(
                as: .jxl(JXLEncodeOptions(effort: effort)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == library, "effort \(effort)")
        }
        #expect(try pixpipe.run(["convert", input, directory.path("bad.jxl"), "--effort", "10"]).status == 2)
        let png = try pixpipe.run(["convert", input, directory.path("out.png"), "--effort", "3"])
        #expect(png.status == 0 && png.errors.contains("--effort only applies to jxl output"), "\(png.errors)")
    }

    @Test("PNG to JPEG XL by extension, info (human and --json) reads it, JPEG XL back to PNG")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(TestImages.png(TestImages.gradient(width: 40, height: 24)), to: "in.png")
        let jxl = directory.path("out.jxl")
        let convert = try pixpipe.run(["convert", input, jxl, "--lossless"])
        #expect(convert.status == 0, "\(convert.errors)")
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: jxl))) == .jxl)
        let human = try pixpipe.run(["info", jxl])
        #expect(human.status == 0 && human.outputText.contains("jxl 40x24"))
        let fields = try record(try pixpipe.run(["info", "--json", jxl]).outputText)
        #expect(fields["format"] as? String == "jxl")
        #expect(fields["width"] as? Int == 40 && fields["height"] as? Int == 24)
        let png = directory.path("back.png")
        #expect(try pixpipe.run(["convert", jxl, png]).status == 0)
        let back = try Image(contentsOfFile: png)
        #expect(back.pixels == (try Image(contentsOfFile: input)).pixels)
        // Lossy, with --quality.
        let lossy = directory.path("lossy.jxl")
        #expect(try pixpipe.run(["convert", input, lossy, "--quality", "60"]).status == 0)
        #expect(try Image(contentsOfFile: lossy).psnr(try Image(contentsOfFile: input)) > 30)
    }

    @Test("an animation: info --json counts its frames; convert to animated WebP keeps them")
    func animationInfo() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(try animation(count: 3), to: "anim.jxl")
        let fields = try record(try pixpipe.run(["info", "--json", file]).outputText)
        #expect(fields["frames"] as? Int == 3)
        #expect(fields["loopCount"] as? Int == 2)
        #expect(fields["durationMs"] as? Int == 303)
        let webp = directory.path("anim.webp")
        let convert = try pixpipe.run(["convert", file, webp])
        #expect(convert.status == 0, "\(convert.errors)")
        #expect(try Image.info(contentsOfFile: webp).animation?.frameCount == 3)
    }

    @Test("jpg -> jxl --lossless-jpeg -> jpg gives back the identical bytes, smaller in between")
    func losslessJPEG() throws {
        let directory = try TemporaryDirectory()
        let jpeg = try TestImages.gradient(width: 120, height: 80, layout: .rgb).encoded(as: .jpeg(quality: 88))
        let input = try directory.write(jpeg, to: "photo.jpg")
        let jxl = directory.path("photo.jxl")
        let convert = try pixpipe.run(["convert", input, jxl, "--lossless-jpeg"])
        #expect(convert.status == 0, "\(convert.errors)")
        let stored = try Data(contentsOf: URL(fileURLWithPath: jxl))
        #expect(stored.count < jpeg.count)
        let back = directory.path("back.jpg")
        #expect(try pixpipe.run(["convert", jxl, back]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == jpeg)
        // Any processing decodes and re-encodes instead.
        let smaller = directory.path("small.jpg")
        #expect(try pixpipe.run(["convert", jxl, smaller, "--width", "60"]).status == 0)
        #expect(try Image(contentsOfFile: smaller).width == 60)
    }

    @Test("the corpus's recompressed JPEG XL converts back to its source JPEG", .enabled(if: Corpora.isAvailable))
    func corpusReconstruction() throws {
        let directory = try TemporaryDirectory()
        let back = directory.path("back.jpg")
        #expect(try pixpipe.run(["convert", Corpora.path("jxl/gen-jpeg-recompressed.jxl"), back]).status == 0)
        let source = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("jxl/gen-jpeg-source-q90.jpg")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == source)
    }

    @Test("--lossless-jpeg: a usage error for a non-JPEG input or a non-JXL output; listed in --help")
    func losslessJPEGUsage() throws {
        let directory = try TemporaryDirectory()
        let png = try directory.write(TestImages.png(TestImages.gradient(width: 8, height: 8)), to: "in.png")
        let wrongInput = try pixpipe.run(["convert", png, directory.path("x.jxl"), "--lossless-jpeg"])
        #expect(wrongInput.status == 2)
        #expect(wrongInput.errors.contains("needs a JPEG input"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.jxl")))
        let jpeg = try directory.write(
            try TestImages.gradient(width: 8, height: 8, layout: .rgb).encoded(as: .jpeg), to: "in.jpg")
        let wrongOutput = try pixpipe.run(["convert", jpeg, directory.path("x.png"), "--lossless-jpeg"])
        #expect(wrongOutput.status == 2)
        #expect(wrongOutput.errors.contains("writes JPEG XL"))
        #expect(try pixpipe.run(["convert", "--help"]).outputText.contains("--lossless-jpeg"))
    }

    @Test("thumbnail of a JPEG XL, written as JPEG XL with --format, at the asked size, turned upright")
    func thumbnail() throws {
        let directory = try TemporaryDirectory()
        var image = TestImages.gradient(width: 200, height: 100)
        image.metadata.orientation = .right
        let file = try directory.write(try image.encoded(as: .jxl), to: "x.jxl")
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", file, "--out", out, "--size", "50", "--format", "jxl"])
        #expect(result.status == 0, "\(result.errors)")
        let thumbnail = try Image(contentsOfFile: "\(out)/x.jxl")
        // Stored 200 x 100 with orientation 6: upright it is 100 x 200, so 25 x 50.
        #expect(thumbnail.width == 25 && thumbnail.height == 50)
    }

    @Test("fetch: a JPEG XL from the test server is verified, stored as .jxl, format jxl in the manifest")
    func fetch() throws {
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let jxl = Array(try TestImages.gradient(width: 30, height: 20).encoded(as: .jxl))
        server.route("/picture", .respond(headers: ["Content-Type": "image/jxl"], body: jxl))
        server.route("/cut", .respond(headers: ["Content-Type": "image/jxl"], body: Array(jxl.prefix(jxl.count - 30))))
        let list = try folder.write(
            Data((server.url("/picture").absoluteString + "\n" + server.url("/cut").absoluteString + "\n").utf8),
            to: "list.txt")
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--retries", "1", "--timeout", "5"])
        #expect(result.status == 1)
        let records = try manifestRecords(in: folder)
        let good = try #require(records.first { $0.url == server.url("/picture").absoluteString })
        #expect(good.status.rawValue == "ok" && good.format == "jxl" && good.width == 30 && good.height == 20)
        #expect(good.name?.hasSuffix(".jxl") == true)
        let cut = try #require(records.first { $0.url == server.url("/cut").absoluteString })
        #expect(cut.status.rawValue != "ok")
    }

    @Test("a cut JPEG XL: stderr holds Pixpipe's own typed error, in strict and lenient mode")
    func cutFileStderr() throws {
        let directory = try TemporaryDirectory()
        let whole = try TestImages.gradient(width: 96, height: 64).encoded(
            as: .jxl(JXLEncodeOptions(lossless: true, effort: 1)))
        let input = try directory.write(whole.prefix(whole.count / 2), to: "cut.jxl")
        for mode in [[], ["--lenient"]] {
            let run = try pixpipe.run(["convert", input, directory.path("out.png")] + mode)
            #expect(run.status == 1, "\(mode): \(run.errors)")
            let lines = run.errors.split(separator: "\n")
            let own = lines.filter { $0.hasPrefix("pixpipe: ") }
            #expect(own.count == 1 && own.first?.contains("truncated jxl data") == true, "\(mode): \(run.errors)")
            // libjxl 0.7 built without NDEBUG (as Debian builds it) writes its failure trace to stderr from
            // inside the library, through a symbol it does not export; its API has no switch for it, and only
            // redirecting the whole process's stderr would hide it. That trace is all the rest may be.
            let foreign = lines.filter { !$0.hasPrefix("pixpipe: ") }
            #expect(foreign.allSatisfy { $0.hasPrefix("./lib/jxl/") }, "\(mode): \(foreign)")
            withKnownIssue(
                "libjxl 0.7's own failure trace on stderr, which its API cannot turn off", isIntermittent: true
            ) {
                #expect(foreign.isEmpty, "\(mode): \(foreign)")
            }
        }
    }

    @Test("bombs: a 100,000 x 100,000 header and a million frames are refused fast, under 100 MB")
    func bombs() throws {
        let directory = try TemporaryDirectory()
        var bits = BitWriter()
        bits.write(0, bits: 1)
        bits.write(3, bits: 2)
        bits.write(99_999, bits: 30)
        bits.write(0, bits: 3)
        bits.write(3, bits: 2)
        bits.write(99_999, bits: 30)
        bits.write(1, bits: 1)
        let huge = try directory.write(
            Data([0xFF, 0x0A] + bits.bytes + [UInt8](repeating: 0, count: 8)), to: "huge.jxl")
        let frames = try directory.write(try manyFrames(1_000_000), to: "frames.jxl")
        // info reads no pixels and has no pixel limit: the huge header is only cut short there.
        for (file, message, infoMessage) in [(huge, "too large", "truncated"), (frames, "frames", "frames")] {
            for command in [["convert", file, directory.path("out.png")], ["info", file]] {
                let usage = try ChildProcessUsage.measure(pixpipe.url, command)
                #expect(usage.status == 1, "\(command): \(usage.errors)")
                let expected = command[0] == "info" ? infoMessage : message
                #expect(usage.errors.contains(expected), "\(usage.errors)")
                #expect(usage.cpuTime < (ChildProcessUsage.isSanitized ? .seconds(20) : .seconds(2)))
                #expect(usage.elapsed < ChildProcessUsage.hangLimit)
                if !ChildProcessUsage.isSanitized { #expect(usage.peakResidentBytes < 100 << 20) }
                print("jxl bomb \(command): \(usage.cpuTime) CPU, peak RSS \(usage.peakResidentBytes >> 20) MiB")
            }
        }
    }

    /// `count` identical 1 x 1 frames: a middle frame's bytes of a three-frame encode repeated (frames start
    /// on byte boundaries, and the middle ones of identical frames are alike).
    private func manyFrames(_ count: Int) throws -> Data {
        let pixel = Image(width: 1, height: 1, pixelFormat: .rgb8, pixels: [10, 20, 30])
        func encode(_ frames: Int) throws -> [UInt8] {
            let animation = (0..<frames).map { AnimationFrame(index: $0, image: pixel, duration: .milliseconds(10)) }
            return [UInt8](
                try ImageEncoding.jxl(JXLEncodeOptions(lossless: true, effort: 1)).encodeAnimation(animation))
        }
        let three = try encode(3)
        let four = try encode(4)
        let size = four.count - three.count
        func fits(_ split: Int) -> Bool {
            let head = Array(four[..<split]) == Array(three[..<split])
            let tail: Bool = Array(four[(split + size)...]) == Array(three[split...])
            return head && tail
        }
        let candidates = Array((2...(three.count - size)).reversed())
        let split = try #require(candidates.first(where: fits))
        let middle = Array(four[split..<(split + size)])
        var bytes = Array(three[..<split])
        for _ in 0..<(count - 3) { bytes += middle }
        return Data(bytes + three[split...])
    }

    /// Bits packed least significant first, as JPEG XL reads them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: UInt64, bits: Int) {
            for bit in 0..<bits {
                if count % 8 == 0 { bytes.append(0) }
                if value >> UInt64(bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (count % 8)) }
                count += 1
            }
        }
    }
}
