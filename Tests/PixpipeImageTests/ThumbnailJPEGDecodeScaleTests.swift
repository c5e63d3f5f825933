import Foundation
import Testing

@testable import PixpipeImage

@Suite("Thumbnail: the JPEG decode scale raised to libjpeg-turbo's SIMD scales")
struct ThumbnailJPEGDecodeScaleTests {
    /// (width, height, target box, expected decode M): 6/8 and 7/8 become 8/8, 3/8 becomes 4/8, the rest stay.
    @Test(arguments: [
        (768, 512, 256, 8), (768, 768, 300, 8), (1536, 1024, 256, 4), (4000, 4000, 256, 2), (4000, 4000, 126, 1),
        (1000, 1000, 300, 5), (768, 768, 400, 8),
    ])
    func raisesToTheSIMDScale(_ example: (Int, Int, Int, Int)) {
        let (width, height, target, expected) = example
        let numerator = Thumbnailer.jpegDecodeNumerator(
            width: width, height: height, targetWidth: target, targetHeight: target, pixelLimit: nil)
        #expect(numerator == expected)
        let rule = Thumbnailer.jpegScaleNumerator(
            width: width, height: height, targetWidth: target, targetHeight: target)
        #expect(numerator >= rule)
    }

    @Test func staysWithinThePixelLimit() {
        // 6/8 of 2000x2000 is 1500x1500 (2.25 MP); 8/8 (4 MP) would go over a 3 MP limit.
        #expect(
            Thumbnailer.jpegDecodeNumerator(
                width: 2000, height: 2000, targetWidth: 700, targetHeight: 700, pixelLimit: 3_000_000) == 6)
        #expect(
            Thumbnailer.jpegDecodeNumerator(
                width: 2000, height: 2000, targetWidth: 700, targetHeight: 700, pixelLimit: 4_000_000) == 8)
    }

    /// A 768x512 JPEG thumbnailed to 256 px is now the full decode resized: the same pixels as resizing
    /// `Image(data:)` with the default filter.
    @Test func aSmallPhotoIsTheFullDecodeResized() throws {
        let image = SyntheticImages.smooth(width: 768, height: 512, format: .rgb8)
        let jpeg = try image.encoded(as: .jpeg(quality: 90))
        let thumbnail = try Thumbnailer(.init(size: .box(256))).thumbnail(data: jpeg)
        let resized = try Image(data: jpeg).resized(width: 256, height: 171)
        #expect(thumbnail.pixels == resized.pixels)
    }
}
