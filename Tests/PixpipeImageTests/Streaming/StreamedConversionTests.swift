import Foundation
import Testing

@testable import PixpipeImage

/// ``StreamedConversion`` on real files in a fresh folder: the file it writes is the one the whole-image
/// path writes (decode, then encode), byte for byte; it declines what needs the whole image, writing
/// nothing; and a decode failure midway leaves neither an output nor a temporary file.
@Suite("StreamedConversion: rows streamed from decoder to encoder")
struct StreamedConversionTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-streamed-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ bytes: some Sequence<UInt8>, to name: String) throws -> String {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return path(name)
    }

    /// Streams `input` to `name` with `encoding` and expects the bytes the whole-image path gives.
    func expectSameAsWholeImage(
        _ input: String, _ name: String, _ encoding: ImageEncoding, options: DecodeOptions = .init()
    ) throws {
        let result = try #require(
            try StreamedConversion.convert(contentsOfFile: input, to: path(name), as: encoding, options: options))
        let whole = try Image(contentsOfFile: input, options: options)
        #expect(result.width == whole.width && result.height == whole.height)
        let streamed = try Data(contentsOf: folder.appendingPathComponent(name))
        #expect(streamed == (try whole.encoded(as: encoding)), "\(name) differs from the whole-image encode")
    }

    static let formats: [PixelFormat] = [
        .gray8, .grayAlpha8, .rgb8, .rgba8, PixelFormat(layout: .gray, bitsPerSample: 16),
        PixelFormat(layout: .rgba, bitsPerSample: 16),
    ]

    @Test("PNG to PNG, PAM and PPM: the whole-image path's bytes, 8 and 16 bits, gray, alpha", arguments: formats)
    func pngPairsMatchTheWholeImagePath(format: PixelFormat) throws {
        var image = TestImages.noise(width: 97, height: 301, format: format)
        image.metadata.iccProfile = format.layout.isColor ? TestImages.iccProfile() : nil
        image.metadata.exif = TestImages.exif(orientation: .up)
        let input = try write(try image.encoded(as: .png), to: "in.png")
        for keeps16Bit in [true, false] {
            let options = DecodeOptions(keeps16Bit: keeps16Bit)
            try expectSameAsWholeImage(input, "out.png", .png, options: options)
            try expectSameAsWholeImage(input, "out.pam", .pam, options: options)
            try expectSameAsWholeImage(input, "out.ppm", .ppm, options: options)
        }
        #expect(try names() == ["in.png", "out.pam", "out.png", "out.ppm"])
    }

    @Test("A palette PNG with transparency and a 1-bit gray PNG stream as they decode")
    func paletteAndLowBitPNGs() throws {
        let (width, height) = (13, 9)
        let indices: [UInt8] = (0..<height).flatMap { y -> [UInt8] in [0] + (0..<width).map { x in UInt8((x + y) % 3) }
        }
        let palette =
            PNGBytes.signature + PNGBytes.ihdr(width: UInt32(width), height: UInt32(height), colorType: 3)
            + PNGBytes.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255]) + PNGBytes.chunk("tRNS", [255, 128])
            + PNGBytes.chunk("IDAT", StoredZlib.stream(indices)) + PNGBytes.chunk("IEND", [])
        let paletteFile = try write(palette, to: "palette.png")
        try expectSameAsWholeImage(paletteFile, "palette-out.png", .png)
        try expectSameAsWholeImage(paletteFile, "palette-out.pam", .pam)

        let bits: [UInt8] = (0..<height).flatMap { y -> [UInt8] in [0, UInt8(0b1010_1010 >> (y % 2)), 0b1100_0000] }
        let oneBit =
            PNGBytes.signature + PNGBytes.ihdr(width: 10, height: UInt32(height), bitDepth: 1, colorType: 0)
            + PNGBytes.chunk("IDAT", StoredZlib.stream(bits)) + PNGBytes.chunk("IEND", [])
        try expectSameAsWholeImage(try write(oneBit, to: "bits.png"), "bits-out.pam", .pam)
    }

    @Test("TIFF and JPEG to PNG and PAM: the whole-image path's bytes")
    func tiffAndJPEGMatchTheWholeImagePath() throws {
        let image = TestImages.noise(width: 120, height: 333, format: .rgb8)
        let tiff = try write(try image.encoded(as: .tiff), to: "in.tif")
        try expectSameAsWholeImage(tiff, "tiff.png", .png)
        try expectSameAsWholeImage(tiff, "tiff.pam", .pam)
        let sixteen = TestImages.noise(width: 50, height: 70, format: PixelFormat(layout: .rgba, bitsPerSample: 16))
        let tiff16 = try write(try sixteen.encoded(as: .tiff), to: "in16.tif")
        try expectSameAsWholeImage(tiff16, "tiff16.png", .png, options: DecodeOptions(keeps16Bit: true))
        let jpeg = try write(try image.encoded(as: .jpeg(quality: 90)), to: "in.jpg")
        try expectSameAsWholeImage(jpeg, "jpeg.png", .png)
        try expectSameAsWholeImage(jpeg, "jpeg.ppm", .ppm)
        let gray = try write(try image.converted(to: .gray8).encoded(as: .jpeg(quality: 80)), to: "gray.jpg")
        try expectSameAsWholeImage(gray, "gray.pam", .pam)
    }

    @Test("What needs the whole image is declined with nothing written")
    func declinesWhatNeedsTheWholeImage() throws {
        let image = TestImages.noise(width: 40, height: 30, format: .rgb8)
        let interlaced = try write(try image.encoded(as: .png(PNGEncodeOptions(interlaced: true))), to: "adam7.png")
        #expect(try StreamedConversion.convert(contentsOfFile: interlaced, to: path("a.png"), as: .png) == nil)
        let plain = try write(try image.encoded(as: .png), to: "plain.png")
        #expect(
            try StreamedConversion.convert(
                contentsOfFile: plain, to: path("b.png"), as: .png(PNGEncodeOptions(interlaced: true))) == nil)
        #expect(try StreamedConversion.convert(contentsOfFile: plain, to: path("c.jpg"), as: .jpeg(quality: 90)) == nil)
        var turned = image
        turned.metadata.exif = TestImages.exif(orientation: .right)
        turned.metadata.orientation = .right
        let rotated = try write(try turned.encoded(as: .png), to: "turned.png")
        #expect(try StreamedConversion.convert(contentsOfFile: rotated, to: path("d.png"), as: .png) == nil)
        #expect(try names() == ["adam7.png", "plain.png", "turned.png"])
        // Without applying the orientation the stored rows stream, and the tag is kept.
        let kept = try #require(
            try StreamedConversion.convert(
                contentsOfFile: rotated, to: path("e.png"), as: .png, appliesOrientation: false))
        #expect(kept.width == 40)
        #expect(try Image(contentsOfFile: path("e.png")).metadata.orientation == .right)
    }

    @Test("A PNG cut short midway fails: no output, no temporary file, an existing output kept")
    func truncatedInputLeavesNoOutput() throws {
        let image = TestImages.noise(width: 300, height: 400, format: .rgb8)
        let png = try image.encoded(as: .png(PNGEncodeOptions(compressionLevel: 0)))
        let input = try write(png.prefix(png.count / 2), to: "cut.png")
        #expect(throws: ImageDecodingError.self) {
            try StreamedConversion.convert(contentsOfFile: input, to: path("out.pam"), as: .pam)
        }
        #expect(try names() == ["cut.png"])
        let existing = try write([1, 2, 3], to: "kept.png")
        #expect(throws: ImageDecodingError.self) {
            try StreamedConversion.convert(contentsOfFile: input, to: existing, as: .png)
        }
        #expect(try names() == ["cut.png", "kept.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data([1, 2, 3]))
        // Lenient: the rows before the cut, the rest zero, with a warning, as the whole decode gives them.
        let lenient = DecodeOptions(strictness: .lenient)
        let result = try #require(
            try StreamedConversion.convert(contentsOfFile: input, to: path("lenient.pam"), as: .pam, options: lenient))
        #expect(!result.warnings.isEmpty)
        let whole = try Image(contentsOfFile: input, options: lenient).encoded(as: .pam)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("lenient.pam"))) == whole)
    }
}
