import Foundation
import PixpipeImage
import Testing

/// Thumbnails convert to sRGB and drop the profile by default, on the resized pixels.
@Suite("Thumbnail: colour")
struct ThumbnailColorTests {
    /// A 400x300 gradient written in Display P3 by Little CMS, as a PNG carrying the profile.
    static func p3PNG(_ profile: [UInt8]) throws -> (png: Data, original: Image) {
        let original = ColorConversionTests.gradient(.rgb8, width: 400, height: 300)
        let p3 = ColorTestProfiles.transform(original, from: ColorProfile.sRGB.iccData, to: profile)
        return (try p3.encoded(as: .png), original)
    }

    @Test("a Display P3 photo's thumbnail is sRGB, untagged, close to the sRGB thumbnail")
    func p3ThumbnailIsSRGB() throws {
        let profile = ColorTestProfiles.displayP3("Test phone P3, thumbnails")
        let (png, original) = try Self.p3PNG(profile)
        let thumbnailer = Thumbnailer(.init(size: .box(100)))
        let thumbnail = try thumbnailer.thumbnail(data: png)
        #expect(thumbnail.metadata.iccProfile == nil && thumbnail.metadata.warnings.isEmpty)
        let reference = try thumbnailer.thumbnail(of: original)
        let difference = ColorTestProfiles.deltaE2000(thumbnail, reference)
        #expect(difference.mean < 1 && difference.max < 3, "mean \(difference.mean), max \(difference.max)")
        // The transform ran on the thumbnail: one built, for 100x75 pixels.
        #expect(ColorTransformCacheProbe.built(from: profile) == 1)
    }

    @Test("without a conversion, the profile and the pixels are the source's")
    func keepProfile() throws {
        let profile = ColorTestProfiles.displayP3("Test phone P3, kept")
        let (png, _) = try Self.p3PNG(profile)
        let kept = try Thumbnailer(.init(size: .box(100), colorConversion: nil)).thumbnail(data: png)
        #expect(kept.metadata.iccProfile == profile)
        let converted = try Thumbnailer(.init(size: .box(100))).thumbnail(data: png)
        #expect(kept.pixels != converted.pixels)
        #expect(ColorTransformCacheProbe.built(from: profile) == 1)
    }

    @Test("a P3 target embeds the P3 profile")
    func p3Target() throws {
        let image = ColorConversionTests.gradient(.rgb8, width: 120, height: 80)
        let options = ThumbnailOptions(size: .box(60), colorConversion: ColorConversion(target: .displayP3))
        let thumbnail = try Thumbnailer(options).thumbnail(of: image)
        #expect(thumbnail.metadata.iccProfile == ColorProfile.displayP3.iccData)
    }

    @Test("a damaged profile keeps the pixels, drops the profile and warns")
    func damagedProfile() throws {
        var image = ColorConversionTests.gradient(.rgb8, width: 120, height: 80)
        image.metadata.iccProfile = [UInt8](repeating: 1, count: 256)
        let thumbnail = try Thumbnailer(.init(size: .box(60))).thumbnail(of: image)
        let plain = try Thumbnailer(.init(size: .box(60), colorConversion: nil)).thumbnail(of: image)
        #expect(thumbnail.pixels == plain.pixels && thumbnail.metadata.iccProfile == nil)
        #expect(thumbnail.metadata.warnings.map(\.code) == ["color-profile-ignored"])
    }
}
