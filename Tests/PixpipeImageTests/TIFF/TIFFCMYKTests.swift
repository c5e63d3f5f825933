import Foundation
import Testing

@testable import PixpipeImage

/// CMYK TIFF pages against references outside the TIFF decoder, in `Fixtures/cmyk` (made by its
/// `make-fixtures.py`, from 96x64 CMYK samples it makes: every ink across the image, four levels of black):
///
/// - with an embedded CMYK profile (a small test profile, far from the generic press model), the reference
///   is vips 8.14 converting the file through its embedded profile to Little CMS's built-in sRGB (the
///   decoder's destination), perceptual: another program's colour pipeline, sharing only the engine;
/// - without a profile, the reference is the JPEG decoder: a CMYK JPEG of the same samples, whose decoded
///   samples are what the TIFF stores, goes through the same conversion (the generic press profile).
@Suite("TIFF CMYK pages against vips and the JPEG path")
struct TIFFCMYKTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/cmyk", isDirectory: true)

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// The largest and the mean absolute difference of two images' samples, of the same size and format.
    static func difference(_ first: Image, _ second: Image) -> (max: Int, mean: Double) {
        let pairs = zip(first.pixels, second.pixels).map { abs(Int($0) - Int($1)) }
        return (pairs.max() ?? 0, Double(pairs.reduce(0, +)) / Double(max(1, pairs.count)))
    }

    @Test("with an embedded CMYK profile: the pixels of vips's Little CMS conversion through that profile")
    func embeddedProfileMatchesVips() throws {
        let decoded = try Image(data: try Self.fixture("cmyk-test-profile.tif"))
        let reference = try Image(data: try Self.fixture("cmyk-test-profile-vips-srgb.png"))
        #expect(decoded.metadata.warnings.isEmpty, "\(decoded.metadata.warnings)")
        #expect(decoded.width == 96 && decoded.height == 64 && decoded.pixelFormat == .rgb8)
        #expect(reference.pixelFormat == .rgb8)
        let measured = Self.difference(decoded, reference)
        // Measured equal. Both run the file's profile and Little CMS's built-in sRGB through the same engine
        // but by different routes: vips to CIELAB in floating point and on to sRGB, the decoder in one 8-bit
        // transform. One level of rounding between those routes is allowed; a wrong profile, intent or
        // channel order moves samples by tens.
        #expect(measured.max <= 1 && measured.mean < 0.1, "\(measured)")

        // The profile is the file's, not the fallback: the same samples without it (up to JPEG noise of at
        // most 7 levels in CMYK) land far from vips (measured: mean 21.9, max 50).
        let generic = try Image(data: try Self.fixture("cmyk-no-profile.tif"))
        let fallback = Self.difference(generic, reference)
        #expect(fallback.mean > 10, "\(fallback)")
    }

    @Test("without a profile: the same pixels as the same CMYK samples decoded from a JPEG")
    func noProfileMatchesJPEGPath() throws {
        let tiff = try Image(data: try Self.fixture("cmyk-no-profile.tif"))
        let jpeg = try Image(data: try Self.fixture("cmyk-no-profile.jpg"))
        #expect(tiff.metadata.sourceFormat == .tiff && jpeg.metadata.sourceFormat == .jpeg)
        #expect(tiff.pixelFormat == .rgb8 && jpeg.pixelFormat == .rgb8)
        #expect(tiff.width == jpeg.width && tiff.height == jpeg.height)
        // The same samples through the same conversion: nothing may differ.
        let measured = Self.difference(tiff, jpeg)
        #expect(measured.max == 0, "\(measured)")
    }
}
