import Foundation
import PixpipeImage
import Testing

/// PNG `gAMA`, `cHRM` and `sRGB` chunks read as the colour space of an untagged PNG.
@Suite("Colour: PNG gAMA, cHRM and sRGB")
struct PNGColorChunkTests {
    /// Display P3's primaries and D65 white, as a `cHRM` would give them.
    static let p3 = ImageMetadata.Chromaticities(
        white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))

    @Test("cHRM and gAMA convert like a profile of those primaries and that gamma")
    func chromaticitiesAndGamma() throws {
        var untagged = ColorConversionTests.gradient(.rgb8, width: 40, height: 30)
        untagged.metadata.chromaticities = Self.p3
        untagged.metadata.gamma = 1 / 1.8
        var tagged = ColorConversionTests.gradient(.rgb8, width: 40, height: 30)
        tagged.metadata.iccProfile = ColorTestProfiles.rgb(
            "Test P3 primaries, gamma 1.8", red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
            gamma: 1.8)
        let fromChunks = try untagged.converted(toColorSpace: .sRGB)
        let fromProfile = try tagged.converted(toColorSpace: .sRGB)
        let difference = ColorTestProfiles.deltaE2000(fromChunks, fromProfile)
        #expect(difference.max < 0.5, "max \(difference.max)")
        #expect(fromChunks.pixels != untagged.pixels)
        #expect(fromChunks.metadata.chromaticities == nil && fromChunks.metadata.gamma == nil)
    }

    @Test("sRGB's chromaticities with gamma 1/2.2, or an sRGB chunk, change nothing")
    func sRGBChunks() throws {
        var image = ColorConversionTests.gradient(.rgb8, width: 40, height: 30)
        image.metadata.chromaticities = .sRGB
        image.metadata.gamma = 0.45455
        #expect(try image.converted(toColorSpace: .sRGB) == image)
        image.metadata.chromaticities = Self.p3
        image.metadata.gamma = 1
        image.metadata.declaresSRGB = true
        #expect(try image.converted(toColorSpace: .sRGB) == image)
    }

    @Test("degenerate chromaticities are ignored, not a crash")
    func degenerate() throws {
        var image = ColorConversionTests.gradient(.rgb8, width: 8, height: 8)
        image.metadata.chromaticities = ImageMetadata.Chromaticities(
            white: (0.3, 0), red: (0.5, 0.5), green: (0.5, 0.5), blue: (0.5, 0.5))
        #expect(try image.converted(toColorSpace: .sRGB) == image)
    }

    @Test("a PngSuite file with cHRM reports its chromaticities", .enabled(if: Corpora.isAvailable))
    func pngSuiteChromaticities() throws {
        let image = try Image(contentsOfFile: Corpora.path("pngsuite", "ccwn2c08.png"))
        let chromaticities = try #require(image.metadata.chromaticities)
        #expect(abs(chromaticities.whiteX - 0.3127) < 0.01)
        #expect(!image.metadata.declaresSRGB)
    }
}
