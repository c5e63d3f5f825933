import Foundation
import Testing

@testable import PixpipeImage

@Suite(
    "Thumbnail quality and orientation on photographs", .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct ThumbnailQualityTests {
    /// Kodak photographs encoded to JPEG here, thumbnailed through shrink-on-load, against the reference:
    /// a full decode resized with the floating-point Lanczos-3.
    @Test(arguments: ["kodim01", "kodim13", "kodim23"])
    func shrinkOnLoadMatchesTheReference(_ name: String) throws {
        let photo = try Image(contentsOfFile: Corpora.path("kodak", "\(name).png"))
        let jpeg = try photo.encoded(as: .jpeg(quality: 95))
        let thumbnail = try Thumbnailer(.init(size: .box(128))).thumbnail(data: jpeg)
        #expect(thumbnail.width == 128 && thumbnail.height == 85)
        let reference = try Image(data: jpeg).referenceResized(width: 128, height: 85)
        let quality = thumbnail.psnr(reference)
        #expect(quality >= 35, "PSNR \(quality) dB")
    }

    /// Every orientation comes out as the same upright picture as `Landscape_1.jpg`.
    @Test(arguments: 0...8)
    func everyOrientationIsUpright(_ orientation: Int) throws {
        let thumbnailer = Thumbnailer(.init(size: .box(120)))
        let upright = try thumbnailer.thumbnail(contentsOfFile: Corpora.path("exif-orientation", "Landscape_1.jpg"))
        let thumbnail = try thumbnailer.thumbnail(
            contentsOfFile: Corpora.path("exif-orientation", "Landscape_\(orientation).jpg"))
        #expect(thumbnail.width == 120 && thumbnail.height == 80)
        #expect(thumbnail.metadata.orientation == .up)
        let similarity = thumbnail.psnr(upright)
        #expect(similarity >= 30, "PSNR \(similarity) dB against Landscape_1")
    }

    @Test func portraitsFitTheBoxUpright() throws {
        let thumbnailer = Thumbnailer(.init(size: .box(120)))
        for orientation in [1, 6, 8] {
            let thumbnail = try thumbnailer.thumbnail(
                contentsOfFile: Corpora.path("exif-orientation", "Portrait_\(orientation).jpg"))
            #expect(thumbnail.width == 80 && thumbnail.height == 120)
        }
    }
}
