import Pixpipe
import Testing

@testable import PixpipeCLI

@Suite("Output format resolution")
struct OutputFormatTests {
    @Test(
        "The extension names the format, in any case",
        arguments: [
            ("out.png", ImageFormat.png), ("out.JPG", .jpeg), ("a/b.c/out.jpeg", .jpeg), ("out.ppm", .ppm),
            ("out.pgm", .ppm), ("out.pnm", .ppm), ("out.pam", .pam),
        ])
    func fromExtension(path: String, expected: ImageFormat) {
        #expect(ImageFormat(path: path) == expected)
    }

    @Test(
        "No extension, a hidden file or an unknown extension names nothing",
        arguments: ["out", ".png", "dir.png/out", "x.bmp"])
    func noFormat(path: String) {
        #expect(ImageFormat(path: path) == nil)
    }

    @Test("--format wins over the extension; standard output needs --format")
    func settings() throws {
        let parser = CommandLineParser(options: ConvertCommand().options)
        let explicit = try ConvertSettings(
            parser.parse(["--format", "pam", "a", "b.png"]), input: "a", output: "b.png")
        #expect(explicit.format == .pam)
        #expect(throws: UsageError.missingOption("--format", reason: "when OUT is '-' (standard output)")) {
            try ConvertSettings(parser.parse(["a", "-"]), input: "a", output: "-")
        }
        #expect(throws: UsageError.self) {
            try ConvertSettings(parser.parse(["-f", "gif", "a", "b"]), input: "a", output: "b")
        }
    }

    @Test("Decode options follow the switches; --max-pixels 0 lifts the limit")
    func decodeOptions() throws {
        let parser = CommandLineParser(options: ConvertCommand().options)
        let defaults = try ConvertSettings(parser.parse(["a", "b.jpg"]), input: "a", output: "b.jpg")
        #expect(defaults.decodeOptions.pixelLimit == 100_000_000)
        #expect(defaults.decodeOptions.strictness == .strict)
        #expect(defaults.quality == nil)  // each format's own default
        #expect(defaults.appliesOrientation)
        let arguments = ["--max-pixels", "0", "--lenient", "--keep-16-bit", "--no-orient", "-q", "70", "a", "b.jpg"]
        let custom = try ConvertSettings(parser.parse(arguments), input: "a", output: "b.jpg")
        #expect(custom.decodeOptions.pixelLimit == nil)
        #expect(custom.decodeOptions.strictness == .lenient)
        // JPEG holds 8 bits: nothing is gained by decoding 16.
        #expect(!custom.decodeOptions.keeps16Bit)
        let png = try ConvertSettings(parser.parse(["a", "b.png"]), input: "a", output: "b.png")
        #expect(png.decodeOptions.keeps16Bit)
        let eight = try ConvertSettings(parser.parse(["--depth", "8", "a", "b.png"]), input: "a", output: "b.png")
        #expect(!eight.decodeOptions.keeps16Bit)
        #expect(!custom.appliesOrientation)
        #expect(custom.quality == 70)
        #expect(custom.ignoredOptionWarnings.isEmpty)
        let ignored = try ConvertSettings(parser.parse(["-q", "70", "a", "b.png"]), input: "a", output: "b.png")
        #expect(ignored.ignoredOptionWarnings.count == 1)
    }
}
