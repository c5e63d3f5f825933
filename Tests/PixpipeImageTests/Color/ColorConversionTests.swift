import Foundation
import PixpipeImage
import Testing

/// Converting between profiles through ``Image/converted(toColorSpace:options:)``: images written in a wide
/// profile by Little CMS directly come back to sRGB within a small CIEDE2000.
@Suite("Colour conversion")
struct ColorConversionTests {
    /// Every sRGB corner and edge of the cube plus smooth colour in between, in `format`.
    static func gradient(_ format: PixelFormat, width: Int = 96, height: Int = 64) -> Image {
        var image = Image(width: width, height: height, pixelFormat: format)
        let maximum = format.bitsPerSample == 16 ? 65535.0 : 255.0
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width - 1)
                let v = Double(y) / Double(height - 1)
                let levels = [u, v, (1 - u) * (0.5 + 0.5 * sin(6 * v)), 0.25 + 0.75 * v * u]
                for channel in 0..<format.channels {
                    let isAlpha = format.layout.hasAlpha && channel == format.channels - 1
                    image[x: x, y: y, channel: channel] = Int(
                        ((isAlpha ? levels[3] : levels[channel]) * maximum).rounded())
                }
            }
        }
        return image
    }

    static let formats: [PixelFormat] = [
        .rgb8, .rgba8, PixelFormat(layout: .rgb, bitsPerSample: 16), PixelFormat(layout: .rgba, bitsPerSample: 16),
    ]

    @Test("a Display P3 or Adobe RGB image converted to sRGB matches the sRGB original", arguments: formats)
    func wideProfilesBackToSRGB(format: PixelFormat) throws {
        let original = Self.gradient(format)
        let sRGB = ColorTestProfiles.sRGB("Test sRGB source")
        for (name, profile) in [("p3", ColorTestProfiles.displayP3()), ("adobe", ColorTestProfiles.adobeRGB())] {
            let tagged = ColorTestProfiles.transform(original, from: sRGB, to: profile)
            #expect(tagged.pixels != original.pixels, "the wide-profile pixels differ from sRGB (\(name))")
            let back = try tagged.converted(toColorSpace: .sRGB)
            #expect(back.pixelFormat == format)
            #expect(back.metadata.iccProfile == ColorProfile.sRGB.iccData)
            let difference = ColorTestProfiles.deltaE2000(back, original)
            #expect(difference.mean < 1, "\(name) \(format): mean \(difference.mean)")
            #expect(difference.max < 3, "\(name) \(format): max \(difference.max)")
            // Not converting at all is far off: the test can fail.
            let unconverted = ColorTestProfiles.deltaE2000(tagged, original)
            #expect(unconverted.mean > 2, "\(name) \(format): unconverted mean \(unconverted.mean)")
            if format.layout.hasAlpha {
                #expect(ColorTestProfiles.alphaBytes(back) == ColorTestProfiles.alphaBytes(original))
            }
        }
    }

    @Test(
        "a Kodak photo written in Display P3 or Adobe RGB comes back to sRGB", .enabled(if: Corpora.isAvailable),
        arguments: [8, 16])
    func kodakPhotoBackToSRGB(bits: Int) throws {
        var original = try Image(contentsOfFile: Corpora.path("kodak", "kodim23.png"))
        if bits == 16 {
            original = Image(
                width: original.width, height: original.height,
                pixelFormat: PixelFormat(layout: .rgb, bitsPerSample: 16),
                pixels: original.samples16.withUnsafeBytes { Array($0) })
        }
        // Measured CIEDE2000 (P3, Adobe RGB): 8 bits mean 0.14 / 0.18, max 1.56 / 1.83; 16 bits mean 0.017 / 0.023,
        // max 0.98 / 1.17.
        let sRGB = ColorTestProfiles.sRGB("Test sRGB source, Kodak")
        for profile in [ColorTestProfiles.displayP3(), ColorTestProfiles.adobeRGB()] {
            let tagged = ColorTestProfiles.transform(original, from: sRGB, to: profile)
            let difference = ColorTestProfiles.deltaE2000(try tagged.converted(toColorSpace: .sRGB), original)
            #expect(difference.mean < 1 && difference.max < 3, "mean \(difference.mean), max \(difference.max)")
        }
    }

    @Test("sRGB converted to Display P3 and Adobe RGB by Pixpipe matches Little CMS's own transform")
    func sRGBToWideTargets() throws {
        let original = Self.gradient(PixelFormat(layout: .rgb, bitsPerSample: 16))
        for (target, profile) in [
            (ColorSpace.displayP3, ColorTestProfiles.displayP3()), (.adobeRGB, ColorTestProfiles.adobeRGB()),
        ] {
            let converted = try original.converted(toColorSpace: target, options: .init(intent: .relativeColorimetric))
            #expect(converted.metadata.iccProfile == target.profile.iccData)
            let expected = ColorTestProfiles.transform(original, from: ColorProfile.sRGB.iccData, to: profile)
            // Both read as if sRGB: the same numbers give a zero difference, whatever they mean.
            let difference = ColorTestProfiles.deltaE2000(converted, expected)
            #expect(difference.max < 0.5, "\(target): max \(difference.max)")
        }
    }

    @Test("an sRGB-tagged or untagged image is left bit-identical and builds no transform", arguments: formats)
    func sRGBUntouched(format: PixelFormat) throws {
        let sRGB = ColorTestProfiles.sRGB("Test sRGB, never transformed \(format)")
        var tagged = Self.gradient(format)
        tagged.metadata.iccProfile = sRGB
        let converted = try tagged.converted(toColorSpace: .sRGB)
        #expect(converted == tagged)
        #expect(ColorTransformCacheProbe.built(from: sRGB) == 0)
        let stripped = try tagged.converted(toColorSpace: .sRGB, options: .init(embedsSRGBProfile: false))
        #expect(stripped.pixels == tagged.pixels && stripped.metadata.iccProfile == nil)
        let untagged = Self.gradient(format)
        #expect(try untagged.converted(toColorSpace: .sRGB) == untagged)
        #expect(try ColorProfile(iccData: sRGB).isSRGB)
        #expect(try !ColorProfile(iccData: ColorTestProfiles.displayP3()).isSRGB)
    }

    @Test("a folder of one camera's photos builds one transform")
    func oneTransformPerProfile() throws {
        let profile = ColorTestProfiles.adobeRGB("Test camera, one transform")
        for seed in 0..<6 {
            var image = SyntheticImages.smooth(width: 20 + seed, height: 12, format: .rgb8)
            image.metadata.iccProfile = profile
            _ = try image.converted(toColorSpace: .sRGB)
        }
        #expect(ColorTransformCacheProbe.built(from: profile) == 1)
    }

    @Test("a broken profile is a typed error")
    func brokenProfile() throws {
        var image = Self.gradient(.rgb8, width: 4, height: 4)
        image.metadata.iccProfile = [UInt8](repeating: 7, count: 300)
        #expect(throws: ImageProcessingError.self) { try image.converted(toColorSpace: .sRGB) }
        do {
            _ = try image.converted(toColorSpace: .sRGB)
        } catch {
            #expect(error.shortName == "invalid-color-profile")
        }
        // A real profile cut short.
        image.metadata.iccProfile = Array(ColorTestProfiles.displayP3().prefix(200))
        #expect(throws: ImageProcessingError.self) { try image.converted(toColorSpace: .sRGB) }
        // An RGB profile on gray pixels.
        var gray = Image(width: 2, height: 2, pixelFormat: .gray8)
        gray.metadata.iccProfile = ColorTestProfiles.displayP3()
        #expect(throws: ImageProcessingError.self) { try gray.converted(toColorSpace: .sRGB) }
    }

    @Test("a gray image with a gamma 1.8 profile stays gray in sRGB, with sRGB's curve")
    func grayProfile() throws {
        var image = Image(width: 256, height: 1, pixelFormat: .grayAlpha8)
        for x in 0..<256 {
            image[x: x, y: 0, channel: 0] = x
            image[x: x, y: 0, channel: 1] = 255 - x
        }
        image.metadata.iccProfile = ColorTestProfiles.gray(gamma: 1.8, name: "Test Gray 1.8")
        let converted = try image.converted(toColorSpace: .sRGB, options: .init(embedsSRGBProfile: false))
        #expect(converted.pixelFormat == .grayAlpha8 && converted.metadata.iccProfile == nil)
        for x in stride(from: 0, to: 256, by: 17) {
            let linear = pow(Double(x) / 255, 1.8)
            let encoded = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
            #expect(abs(Double(converted[x: x, y: 0, channel: 0]) - encoded * 255) <= 1.5, "level \(x)")
            #expect(converted[x: x, y: 0, channel: 1] == 255 - x)
        }
    }

    @Test("an RGB image converted to gray has one channel")
    func toGray() throws {
        let converted = try Self.gradient(.rgba8).converted(toColorSpace: .gray)
        #expect(converted.pixelFormat == .grayAlpha8)
        #expect(converted.metadata.iccProfile == ColorProfile.gray.iccData)
    }

    @Test("built-in profiles say what they are")
    func builtIns() {
        #expect(ColorProfile.sRGB.isSRGB && ColorProfile.sRGB.colorSpace == .rgb)
        #expect(!ColorProfile.displayP3.isSRGB && ColorProfile.displayP3.profileDescription == "Display P3")
        #expect(!ColorProfile.adobeRGB.isSRGB && ColorProfile.adobeRGB.profileDescription == "Adobe RGB (1998)")
        #expect(ColorProfile.gray.colorSpace == .gray && !ColorProfile.gray.isSRGB)
        // A fixed creation date, so every process builds the same bytes (reproducible outputs).
        for profile in [ColorProfile.sRGB, .displayP3, .adobeRGB, .gray] {
            #expect(Array(profile.iccData[24..<36]) == [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
        }
    }
}
