import Foundation
import PixpipeImage
import Testing

/// AVIF colour code points (`colr` of type `nclx`) read and used when there is no ICC profile.
@Suite("Colour: AVIF code points")
struct CICPTests {
    @Test("code points naming Display P3 convert like the Display P3 profile; sRGB's change nothing")
    func codePointsPickTheProfile() throws {
        var image = ColorConversionTests.gradient(.rgb8, width: 40, height: 30)
        image.metadata.cicp = ColorCICP(
            colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 1, fullRange: true)
        var tagged = ColorConversionTests.gradient(.rgb8, width: 40, height: 30)
        tagged.metadata.iccProfile = ColorProfile.displayP3.iccData
        let fromCodePoints = try image.converted(toColorSpace: .sRGB)
        #expect(fromCodePoints.pixels == (try tagged.converted(toColorSpace: .sRGB)).pixels)
        #expect(fromCodePoints.pixels != image.pixels)
        // Converted once: the code points are gone, so converting again changes nothing.
        let untagged = try image.converted(toColorSpace: .sRGB, options: .init(embedsSRGBProfile: false))
        #expect(untagged.metadata.cicp == nil && untagged.metadata.iccProfile == nil)
        #expect(try untagged.converted(toColorSpace: .sRGB) == untagged)

        image.metadata.cicp = ColorCICP(
            colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 1, fullRange: true)
        #expect(try image.converted(toColorSpace: .sRGB) == image)
        // PQ (HDR) is not converted: left as it is.
        image.metadata.cicp = ColorCICP(
            colorPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9, fullRange: false)
        #expect(try image.converted(toColorSpace: .sRGB) == image)
    }

    @Test("an AVIF decode reports its code points")
    func avifReportsCodePoints() throws {
        let image = ColorConversionTests.gradient(.rgb8, width: 32, height: 16)
        let decoded = try Image(data: try image.encoded(as: .avif))
        #expect(decoded.metadata.cicp?.colorPrimaries == 1)
        #expect(decoded.metadata.cicp?.transferCharacteristics == 13)
    }
}
