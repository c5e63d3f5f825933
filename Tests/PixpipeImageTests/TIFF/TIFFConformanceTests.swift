import Foundation
import Testing

@testable import PixpipeImage

/// Every row of `corpora/tiff/references.tsv` (libtiff 4.5's own decodes, see the corpus README).
///
/// `tiffcp` rows are the stored samples: compared exactly with a `keeps16Bit` decode, except associated
/// alpha, which is decoded straight here and premultiplied again for the comparison. `tiffcp+orientation`
/// rows after ``Image/applyingOrientation()``. `tiff2rgba` rows (premultiplied RGBA, 16 bits by their high
/// byte) are compared with an 8-bit decode premultiplied the way libtiff does, except where the two
/// differ by design, each explained in ``tiff2rgbaDifference(_:)``.
@Suite("TIFF conformance (corpora/tiff, libtiff's references)")
struct TIFFConformanceTests {
    static let references = SampleReference.load("tiff")

    @Test("the corpus is present with its references", .enabled(if: Corpora.isAvailable))
    func corpusPresent() {
        #expect(Self.references.count > 100)
        // Every file of the folder has a row.
        let files = Set(Self.references.map(\.file))
        for name in Corpora.files(in: "tiff", where: { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") }) {
            #expect(files.contains(name), "\(name) has no reference")
        }
    }

    @Test("decodes match libtiff's references", .enabled(if: Corpora.isAvailable), arguments: references)
    func matchesReference(_ reference: SampleReference) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("tiff", reference.file)))
        #expect(ImageFormat.sniff(data) == .tiff)
        if reference.digest == "error" {
            #expect(throws: ImageDecodingError.self) { try Self.page(data, reference.frame, .init()) }
            return
        }
        switch reference.decoder {
        case "tiffcp", "tiffcp+orientation":
            var image = try Self.page(data, reference.frame, DecodeOptions(keeps16Bit: true))
            if reference.decoder == "tiffcp+orientation" { image = image.applyingOrientation() }
            if Self.hasAssociatedAlpha(reference.file) { image = Self.premultiplied(image) }
            #expect(image.width == reference.width && image.height == reference.height)
            #expect(sampleDigest(image, channels: reference.channels, bitDepth: reference.bitDepth) == reference.digest)
        default:
            let lenient = Self.tiff2rgbaNeedsLenient.contains(reference.file)
            let image = try Self.page(
                data, reference.frame, DecodeOptions(keeps16Bit: true, strictness: lenient ? .lenient : .strict))
            #expect(image.width == reference.width && image.height == reference.height)
            let rgba = Self.eightBit(image).converted(to: .rgba8)
            let digest = sampleDigest(Self.premultiplied(rgba), channels: 4, bitDepth: 8)
            if let why = Self.tiff2rgbaDifference(reference.file) {
                #expect(digest != reference.digest, "expected to differ: \(why)")
            } else {
                #expect(digest == reference.digest)
            }
        }
    }

    /// Why an 8-bit decode differs from tiff2rgba's, for the files where it does by design.
    static func tiff2rgbaDifference(_ file: String) -> String? {
        switch file {
        case "gen-cmyk8-lzw.tif":
            "CMYK goes through a profile (the generic press profile) here; tiff2rgba uses the naive formula"
        case "gen-rgb8-orientation6-lzw.tif":
            "tiff2rgba treats Orientation 6 as 2 and mirrors the stored pixels; the decode keeps them as stored "
                + "(the tiffcp and tiffcp+orientation rows match exactly)"
        case "gen-rgb16-deflate-bigendian.tif", "gen-rgb16-lzw-pred2.tif", "gen-rgb16-none.tif":
            "FillOrder 2 on 16-bit samples: libtiff bit-reverses them before its 16-to-8 rounding and tiff2rgba "
                + "writes its output with the tag, so the reference's bytes are bit-reversed (the tiffcp rows match "
                + "exactly; for gray, taken by the high byte, the two reversals cancel and the row matches too)"
        default: nil
        }
    }

    /// 16-bit samples at 8 bits as libtiff's RGBA interface takes them: gray by the high byte, colour
    /// rounded ((v + 128) / 257); the decoder's own reduction is the high byte throughout, as for PNG.
    static func eightBit(_ image: Image) -> Image {
        guard image.pixelFormat.bitsPerSample == 16 else { return image }
        let isColor = image.pixelFormat.layout.isColor
        let samples = image.samples16.map { UInt8(isColor ? (Int($0) + 128) / 257 : Int($0 >> 8)) }
        return Image(
            width: image.width, height: image.height,
            pixelFormat: PixelFormat(layout: image.pixelFormat.layout), pixels: samples)
    }

    /// Files tiff2rgba reads through libtiff's codec warnings, which a strict decode refuses.
    static let tiff2rgbaNeedsLenient: Set<String> = ["libtiff-testfax3_bug54_1dnoEOL.tif"]

    /// Pages whose alpha is stored premultiplied (ExtraSamples 1).
    static func hasAssociatedAlpha(_ file: String) -> Bool {
        references.contains { $0.file == file && $0.decoder == "tiffcp" && $0.channels.isMultiple(of: 2) }
            && ["gen-rgba8-associated-deflate.tif", "libtiff-32bpp-None.tiff", "libtiff-minisblack-2c-8b-alpha.tiff"]
                .contains(file)
    }

    /// Page `index` of `data`.
    static func page(_ data: Data, _ index: Int, _ options: DecodeOptions) throws -> Image {
        if index == 0 { return try Image(data: data, options: options) }
        let reader = try AnimationReader(data: data, options: options)
        var frame: AnimationFrame?
        for _ in 0...index { frame = try reader.nextFrame() }
        return try #require(frame).image
    }

    /// Colour times alpha, rounded as libtiff's RGBA interface does ((c * a + 127) / 255).
    static func premultiplied(_ image: Image) -> Image {
        guard image.pixelFormat.layout.hasAlpha else { return image }
        var copy = image
        let channels = image.pixelFormat.channels
        let maximum = image.pixelFormat.bitsPerSample == 8 ? 255 : 65535
        for y in 0..<image.height {
            for x in 0..<image.width {
                let alpha = image[x: x, y: y, channel: channels - 1]
                for channel in 0..<(channels - 1) {
                    copy[x: x, y: y, channel: channel] =
                        (image[x: x, y: y, channel: channel] * alpha + maximum / 2) / maximum
                }
            }
        }
        return copy
    }
}
