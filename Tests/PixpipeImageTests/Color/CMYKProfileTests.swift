import Foundation
import Testing

@testable import PixpipeImage

/// CMYK JPEGs decoded through their embedded profile with Little CMS.
@Suite("JPEG: CMYK through its profile")
struct CMYKProfileTests {
    /// A CMYK JPEG of `samples` (inverted, Adobe style), quality 100 without subsampling, with `profile`.
    static func jpeg(_ samples: [UInt8], width: Int, height: Int, profile: [UInt8]?) throws -> Data {
        let writer = try JPEGWriter(
            width: width, height: height, space: .cmyk, options: .init(quality: 100, chromaSubsampling: .s444))
        if let profile { try writer.writeICCProfile(profile) }
        try samples.withUnsafeBytes { try writer.writeRows($0, stride: width * 4, count: height) }
        return try writer.finish()
    }

    @Test("a CMYK JPEG made from a known sRGB image through its profile decodes back within a small ΔE")
    func embeddedProfile() throws {
        let original = ColorConversionTests.gradient(.rgb8, width: 96, height: 64)
        let profile = ColorTestCMYK.profile(
            through: ColorTestProfiles.displayP3("Test CMYK's RGB"), name: "Test CMYK, P3 inks")
        let samples = ColorTestCMYK.separate(original, into: profile)
        // Measured: CIEDE2000 mean 0.33, max 1.84 through the profile; mean 3.08, max 4.90 without it.
        let decoded = try Image(data: try Self.jpeg(samples, width: 96, height: 64, profile: profile))
        #expect(decoded.pixelFormat == .rgb8)
        #expect(decoded.metadata.iccProfile == nil && decoded.metadata.warnings.isEmpty)
        let difference = ColorTestProfiles.deltaE2000(decoded, original)
        #expect(difference.mean < 1 && difference.max < 3, "mean \(difference.mean), max \(difference.max)")

        // The same samples without the profile take the naive formula, which reads them in sRGB: far off.
        let naive = try Image(data: try Self.jpeg(samples, width: 96, height: 64, profile: nil))
        let naiveDifference = ColorTestProfiles.deltaE2000(naive, original)
        #expect(naiveDifference.mean > 2, "naive mean \(naiveDifference.mean)")
    }

    @Test("a CMYK JPEG with a profile Little CMS refuses falls back to the formula, with a warning")
    func brokenProfile() throws {
        let samples = [UInt8]((0..<(16 * 16)).flatMap { _ in [0, 255, 255, 255] as [UInt8] })
        let decoded = try Image(
            data: try Self.jpeg(samples, width: 16, height: 16, profile: [UInt8](repeating: 3, count: 200)))
        #expect(decoded.metadata.warnings.map(\.code) == ["color-profile-ignored"])
        #expect(decoded.pixels[0] <= 2 && decoded.pixels[1] >= 253 && decoded.pixels[2] >= 253)
        #expect(decoded.metadata.iccProfile == nil)
    }
}
