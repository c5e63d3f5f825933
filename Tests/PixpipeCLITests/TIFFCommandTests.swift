import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The TIFF codec through the command line, run as a process: info (pages), convert both ways, --frame,
/// thumbnail, and fetch from a local server. libtiff's own tools read what the encoder writes.
@Suite("pixpipe on TIFF: info pages, convert both ways, --frame, thumbnail, fetch")
struct TIFFCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Parses the single JSON record of `info --json`.
    private func record(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Three pages of different sizes and layouts, written by the TIFF encoder.
    private func threePages() throws -> (data: Data, images: [Image]) {
        let images = [
            TestImages.gradient(width: 40, height: 30, layout: .rgb),
            TestImages.gradient(width: 20, height: 10, layout: .gray),
            TestImages.gradient(width: 12, height: 16, layout: .rgba),
        ]
        return (try ImageEncoding.tiff.encodePages(images), images)
    }

    /// Runs one of libtiff's tools, returning its exit status and output.
    private func libtiffTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("PNG to TIFF by extension: tiffinfo and tiffcp read it; info and TIFF back to PNG keep every pixel")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let source = TestImages.gradient(width: 40, height: 24)
        let input = try directory.write(TestImages.png(source), to: "in.png")
        let tiff = directory.path("out.tif")
        let convert = try pixpipe.run(["convert", input, tiff])
        #expect(convert.status == 0, "\(convert.errors)")
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: tiff))) == .tiff)

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/tiffinfo") {
            let info = try libtiffTool("tiffinfo", [tiff])
            #expect(info.status == 0 && info.output.contains("Image Width: 40 Image Length: 24"), "\(info.output)")
            #expect(info.output.contains("Deflate") && info.output.contains("unassoc-alpha"), "\(info.output)")
            let copy = directory.path("copy.tif")
            #expect(try libtiffTool("tiffcp", ["-c", "none", tiff, copy]).status == 0)
            #expect(try Image(contentsOfFile: copy).pixels == source.pixels)
        }

        let fields = try record(try pixpipe.run(["info", "--json", tiff]).outputText)
        #expect(fields["format"] as? String == "tiff")
        #expect(fields["width"] as? Int == 40 && fields["height"] as? Int == 24 && fields["alpha"] as? Bool == true)
        #expect(fields["images"] as? Int == 1 && fields["pages"] == nil)

        let png = directory.path("back.png")
        #expect(try pixpipe.run(["convert", tiff, png]).status == 0)
        #expect(try Image(contentsOfFile: png).pixels == source.pixels)
        // --format tiff with LZW readers' extension.
        let tiffByName = directory.path("out.tiff")
        #expect(try pixpipe.run(["convert", input, tiffByName]).status == 0)
        #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: tiffByName))) == .tiff)
    }

    @Test("info lists every page: one human line per page after the first, a pages array under --json")
    func infoPages() throws {
        let directory = try TemporaryDirectory()
        let (data, _) = try threePages()
        let path = try directory.write(data, to: "pages.tif")
        let human = try pixpipe.run(["info", path])
        #expect(human.status == 0)
        #expect(human.outputLines.count == 3)
        #expect(human.outputLines[0].contains("tiff 40x30 rgb8") && human.outputLines[0].contains("3 images"))
        #expect(human.outputLines[1] == "\(path): page 1: 20x10 gray8")
        #expect(human.outputLines[2] == "\(path): page 2: 12x16 rgba8")
        let json = try pixpipe.run(["info", "--json", path])
        #expect(json.outputLines.count == 1)
        let fields = try record(json.outputText)
        #expect(fields["images"] as? Int == 3 && fields["frames"] as? Int == 1)
        let pages = try #require(fields["pages"] as? [[String: Any]])
        #expect(pages.map { $0["width"] as? Int } == [40, 20, 12])
        #expect(pages.map { $0["height"] as? Int } == [30, 10, 16])
        #expect(pages.map { $0["pixelFormat"] as? String } == ["rgb8", "gray8", "rgba8"])
    }

    @Test("convert writes the first page with a note; --frame N picks page N; past the last is exit status 2")
    func convertFrame() throws {
        let directory = try TemporaryDirectory()
        let (data, images) = try threePages()
        let path = try directory.write(data, to: "pages.tif")
        let first = directory.path("first.png")
        let plain = try pixpipe.run(["convert", path, first])
        #expect(plain.status == 0)
        #expect(plain.errors.contains("has 3 pages; wrote the first (use --frame N to pick another)"))
        #expect(try Image(contentsOfFile: first).pixels == images[0].pixels)
        for index in 1...2 {
            let output = directory.path("page\(index).png")
            let result = try pixpipe.run(["convert", "--frame", "\(index)", path, output])
            #expect(result.status == 0, "\(result.errors)")
            let page = try Image(contentsOfFile: output)
            #expect(page.width == images[index].width && page.pixels == images[index].pixels)
        }
        let missing = directory.path("missing.png")
        let out = try pixpipe.run(["convert", "--frame", "3", path, missing])
        #expect(out.status == 2)
        #expect(out.errors.contains("has 3 frames (0 to 2); --frame 3 is out of range"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try pixpipe.run(["convert", "--help"]).outputText.contains("--frame N"))
    }

    @Test("convert of a multi-page TIFF to TIFF writes every page at its own size; libtiff reads them")
    func convertKeepsEveryPage() throws {
        let directory = try TemporaryDirectory()
        let (data, images) = try threePages()
        let path = try directory.write(data, to: "pages.tif")
        let copy = directory.path("copy.tif")
        let result = try pixpipe.run(["convert", path, copy])
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.errors.contains("wrote the first"))
        let info = try Image.info(contentsOfFile: copy)
        #expect(info.pages.map(\.width) == [40, 20, 12] && info.pages.map(\.height) == [30, 10, 16])
        for index in 0..<3 {
            let output = directory.path("copy\(index).png")
            #expect(try pixpipe.run(["convert", "--frame", "\(index)", copy, output]).status == 0)
            #expect(try Image(contentsOfFile: output).pixels == images[index].pixels)
        }
        let listing = try libtiffTool("tiffinfo", [copy])
        #expect(listing.status == 0)
        #expect(listing.output.components(separatedBy: "TIFF Directory at offset").count == 4)
    }

    @Test("thumbnail of a TIFF, of a chosen page with --frame, and of a WebP animation's frame")
    func thumbnail() throws {
        let directory = try TemporaryDirectory()
        let (data, _) = try threePages()
        let path = try directory.write(data, to: "pages.tif")
        let out = directory.path("thumbs")
        let result = try pixpipe.run(["thumbnail", path, "--out", out, "--size", "20", "--format", "png"])
        #expect(result.status == 0, "\(result.errors)")
        let first = try Image(contentsOfFile: "\(out)/pages.png")
        #expect(first.width == 20 && first.height == 15)

        let picked = directory.path("picked")
        let page = try pixpipe.run([
            "thumbnail", path, "--out", picked, "--size", "8", "--frame", "2", "--format", "png",
        ])
        #expect(page.status == 0, "\(page.errors)")
        let small = try Image(contentsOfFile: "\(picked)/pages.png")
        #expect(small.width == 6 && small.height == 8 && small.pixelFormat == .rgba8)

        // Any multi-frame input: the third frame of an animated WebP.
        let canvas = (0..<3).map { index in
            AnimationFrame(
                index: index,
                image: Image(
                    width: 16, height: 16, pixelFormat: .rgb8,
                    pixels: [UInt8](repeating: UInt8(60 * index), count: 16 * 16 * 3)),
                duration: .milliseconds(100))
        }
        let webp = try directory.write(
            try ImageEncoding.webp(WebPEncodeOptions(lossless: true)).encodeAnimation(canvas), to: "anim.webp")
        let webpOut = directory.path("webp")
        let third = try pixpipe.run([
            "thumbnail", webp, "--out", webpOut, "--size", "4", "--frame", "2", "--format", "png",
        ])
        #expect(third.status == 0, "\(third.errors)")
        #expect(try Image(contentsOfFile: "\(webpOut)/anim.png")[x: 1, y: 1, channel: 0] == 120)

        let past = try pixpipe.run(["thumbnail", path, "--out", directory.path("none"), "--frame", "3"])
        #expect(past.status == 2)
        #expect(past.errors.contains("--frame 3 is out of range"))
    }

    @Test("fetch verifies a TIFF from a local server, names it .tif and records format tiff")
    func fetch() throws {
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let body = Array(try TestImages.gradient(width: 24, height: 12).encoded(as: .tiff))
        server.route("/scan", .respond(headers: ["Content-Type": "image/tiff"], body: body))
        server.route(
            "/cut.tif", .respond(headers: ["Content-Type": "image/tiff"], body: Array(body.prefix(body.count / 2))))
        let list = try folder.write(
            Data((server.url("/scan").absoluteString + "\n" + server.url("/cut.tif").absoluteString + "\n").utf8),
            to: "list.txt")
        let result = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--retries", "1", "--timeout", "5"])
        #expect(result.status == 1)
        #expect(result.outputLines == [folder.path("out") + "/scan.tif"])
        let records = try manifestRecords(in: folder)
        let good = try #require(records.first { $0.url.hasSuffix("/scan") })
        #expect(good.status == .ok && good.format == "tiff" && good.width == 24 && good.height == 12)
        let cut = try #require(records.first { $0.url.hasSuffix("/cut.tif") })
        #expect(cut.status != .ok)
        #expect(try Image(contentsOfFile: folder.path("out/scan.tif")).width == 24)
    }
}
