import Foundation
import Testing

@testable import PixpipeImage

@Suite(
    "Thumbnail: fidelity of the JPEG shrink-on-load at 256 px",
    .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct ThumbnailJPEGScaleTests {
    /// Every Kodak photo as a q90 JPEG thumbnailed to 256 px (decoded at 6/8, the "twice the target" rule),
    /// against a full decode resized with the floating-point Lanczos-3: at least 45 dB (48.0 measured). A
    /// decode at 1/2 (libjpeg-turbo's SIMD scale, a third fewer instructions) measured 37.8 dB and was
    /// dropped; this keeps the scale rule and the resampler's kernels from sliding that way unnoticed.
    @Test func thumbnailsStayAbove45dB() throws {
        var lowest = Double.infinity
        for index in 1...24 {
            let name = "kodim" + (index < 10 ? "0" : "") + String(index)
            let photo = try Image(contentsOfFile: Corpora.path("kodak", "\(name).png"))
            let jpeg = try photo.encoded(as: .jpeg(quality: 90))
            let thumbnail = try Thumbnailer(.init(size: .box(256))).thumbnail(data: jpeg)
            let reference = try Image(data: jpeg).referenceResized(width: thumbnail.width, height: thumbnail.height)
            let quality = thumbnail.psnr(reference)
            lowest = min(lowest, quality)
            #expect(quality >= 45, "\(name): PSNR \(quality) dB")
        }
        print("ThumbnailJPEGScaleTests: lowest PSNR of 24 Kodak thumbnails at 256 px: \(lowest) dB")
    }
}
