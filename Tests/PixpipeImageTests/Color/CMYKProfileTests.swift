import CLibLCMS2
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
        // Measured: CIEDE2000 mean 0.33, max 1.84 through the profile.
        let decoded = try Image(data: try Self.jpeg(samples, width: 96, height: 64, profile: profile))
        #expect(decoded.pixelFormat == .rgb8)
        #expect(decoded.metadata.iccProfile == nil && decoded.metadata.warnings.isEmpty)
        let difference = ColorTestProfiles.deltaE2000(decoded, original)
        #expect(difference.mean < 1 && difference.max < 3, "mean \(difference.mean), max \(difference.max)")

        // The same samples without the profile go through the generic press profile, another CMYK: far off.
        let generic = try Image(data: try Self.jpeg(samples, width: 96, height: 64, profile: nil))
        let genericDifference = ColorTestProfiles.deltaE2000(generic, original)
        #expect(genericDifference.mean > 2, "generic mean \(genericDifference.mean)")
    }

    @Test("a CMYK JPEG with a profile Little CMS refuses takes the generic profile, with a warning")
    func brokenProfile() throws {
        let samples = [UInt8]((0..<(16 * 16)).flatMap { _ in [0, 255, 255, 255] as [UInt8] })
        let broken = try Image(
            data: try Self.jpeg(samples, width: 16, height: 16, profile: [UInt8](repeating: 3, count: 200)))
        #expect(broken.metadata.warnings.map(\.code) == ["color-profile-ignored"])
        #expect(broken.metadata.iccProfile == nil)
        let untagged = try Image(data: try Self.jpeg(samples, width: 16, height: 16, profile: nil))
        #expect(untagged.pixels == broken.pixels && untagged.metadata.warnings.isEmpty)
    }

    /// ISO 12647-2 paper type 1 aims (CIELAB D50): paper, C, M, Y, K, and the overprints M+Y, C+Y, C+M, as
    /// inverted CMYK samples and Lab.
    static let aims: [(samples: [UInt8], lab: (Double, Double, Double))] = [
        ([255, 255, 255, 255], (95, 0, -2)), ([0, 255, 255, 255], (55, -37, -50)),
        ([255, 0, 255, 255], (48, 74, -3)), ([255, 255, 0, 255], (89, -5, 93)), ([255, 255, 255, 0], (16, 0, 0)),
        ([255, 0, 0, 255], (47, 68, 48)), ([0, 255, 0, 255], (50, -65, 27)), ([0, 0, 255, 255], (24, 22, -46)),
    ]

    @Test("the generic CMYK profile puts solid inks on the ISO 12647-2 aims, media-relative")
    func genericProfileSolids() throws {
        // Read the profile's colorimetry directly: CMYK to L*a*b*, relative colorimetric, no black-point scaling.
        let samples = Self.aims.flatMap(\.samples)
        let profile = ColorProfile.genericCMYK.iccData
        let source = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count))! }
        let labProfile = cmsCreateLab4Profile(nil)!
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(labProfile)
        }
        // Floating point on both sides (lcms2 does not mix integer and float formats here): TYPE_CMYK_DBL, ink
        // in percent, and TYPE_Lab_DBL.
        let cmykDouble = UInt32(1 << 22 | Int(PT_CMYK) << 16 | 4 << 3)
        let labDouble = UInt32(1 << 22 | Int(PT_Lab) << 16 | 3 << 3)
        let transform = cmsCreateTransform(
            source, cmykDouble, labProfile, labDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC),
            UInt32(cmsFLAGS_NOCACHE))!
        defer { cmsDeleteTransform(transform) }
        let inks = samples.map { Double(255 - Int($0)) / 255 * 100 }
        var lab = [Double](repeating: 0, count: Self.aims.count * 3)
        cmsDoTransform(transform, inks, &lab, UInt32(Self.aims.count))
        // Media-relative: XYZ scaled so the paper is the D50 white, as the profile's PCS values are.
        func xyz(_ value: (Double, Double, Double)) -> cmsCIEXYZ {
            var lab = cmsCIELab(L: value.0, a: value.1, b: value.2)
            var xyz = cmsCIEXYZ()
            cmsLab2XYZ(nil, &xyz, &lab)
            return xyz
        }
        let paper = xyz(Self.aims[0].lab)
        let white = cmsD50_XYZ().pointee
        for (index, aim) in Self.aims.enumerated() {
            let absolute = xyz(aim.lab)
            var relative = cmsCIEXYZ(
                X: absolute.X / paper.X * white.X, Y: absolute.Y / paper.Y * white.Y, Z: absolute.Z / paper.Z * white.Z)
            var expected = cmsCIELab()
            cmsXYZ2Lab(nil, &expected, &relative)
            var found = cmsCIELab(L: lab[index * 3], a: lab[index * 3 + 1], b: lab[index * 3 + 2])
            let difference = cmsCIE2000DeltaE(&found, &expected, 1, 1, 1)
            #expect(difference < 0.5, "patch \(index): ΔE2000 \(difference)")
        }
    }

    @Test("a CMYK JPEG without a profile decodes through the generic profile")
    func untaggedUsesTheGenericProfile() throws {
        let patch = 16
        let width = patch * Self.aims.count
        var samples = [UInt8](repeating: 0, count: width * patch * 4)
        for y in 0..<patch {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                samples.replaceSubrange(offset..<(offset + 4), with: Self.aims[x / patch].samples)
            }
        }
        let decoded = try Image(data: try Self.jpeg(samples, width: width, height: patch, profile: nil))
        // What Little CMS makes of the solids through the generic profile, perceptual, into sRGB.
        let source = ColorProfile.genericCMYK.iccData.withUnsafeBytes {
            cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count))!
        }
        let sRGB = cmsCreate_sRGBProfile()!
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(sRGB)
        }
        let rgb8 = UInt32(Int(PT_RGB) << 16 | 3 << 3 | 1)
        let transform = cmsCreateTransform(
            source, ColorTestCMYK.cmykInverted, sRGB, rgb8, UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE))!
        defer { cmsDeleteTransform(transform) }
        var expected = [UInt8](repeating: 0, count: Self.aims.count * 3)
        cmsDoTransform(transform, Self.aims.flatMap(\.samples), &expected, UInt32(Self.aims.count))
        for index in 0..<Self.aims.count {
            let centre = ((patch / 2) * width + index * patch + patch / 2) * 3
            for channel in 0..<3 {
                let difference = abs(Int(decoded.pixels[centre + channel]) - Int(expected[index * 3 + channel]))
                #expect(difference <= 2, "patch \(index) channel \(channel)")
            }
        }
        // Press cyan is not the naive formula's pure (0, 255, 255): duller, as printed.
        #expect(expected[4] < 220 && expected[5] > 200)
    }
}
