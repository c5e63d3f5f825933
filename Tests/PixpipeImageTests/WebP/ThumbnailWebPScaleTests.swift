import Foundation
import Testing

@testable import PixpipeImage

@Suite(
    "Thumbnail: fidelity of the WebP shrink-on-load",
    .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct ThumbnailWebPScaleTests {
    /// Every Kodak photo (768x512) as a q90 lossy WebP thumbnailed to `target` px through libwebp's rescaler
    /// (three times the target, then Lanczos-3), against a full decode resized with the floating-point
    /// Lanczos-3: at least 45 dB, as for JPEG. At twice the target the rescaler's output measured 40.0 dB
    /// (64 px) to 42.8 dB (256 px) on eight of these photos.
    @Test(arguments: [192, 128, 64])
    func thumbnailsStayAbove45dB(target: Int) throws {
        var lowest = Double.infinity
        for index in 1...24 {
            let name = "kodim" + (index < 10 ? "0" : "") + String(index)
            let photo = try Image(contentsOfFile: Corpora.path("kodak", "\(name).png"))
            let webp = try photo.encoded(as: .webp(quality: 90))
            let thumbnail = try Thumbnailer(.init(size: .box(target))).thumbnail(data: webp)
            let reference = try Image(data: webp).referenceResized(width: thumbnail.width, height: thumbnail.height)
            let quality = thumbnail.psnr(reference)
            lowest = min(lowest, quality)
            #expect(quality >= 45, "\(name) at \(target) px: PSNR \(quality) dB")
        }
        print("ThumbnailWebPScaleTests: lowest PSNR of 24 Kodak WebP thumbnails at \(target) px: \(lowest) dB")
    }
}
