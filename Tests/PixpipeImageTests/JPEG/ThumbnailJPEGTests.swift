import Foundation
import Testing

@testable import PixpipeImage

@Suite("Thumbnail: JPEG shrink-on-load and limits")
struct ThumbnailJPEGTests {
    /// (source side, target side, expected M): the smallest M/8 keeping at least three times the target,
    /// rounded up to a scale with a cheap inverse DCT (1, 2, 4 or 8).
    @Test(arguments: [
        (4000, 256, 2), (4000, 250, 2), (4000, 126, 1), (768, 128, 4), (768, 300, 8), (768, 400, 8), (1800, 256, 4),
        (1536, 256, 4), (768, 256, 8), (4096, 256, 2), (6144, 256, 1), (3000, 256, 4), (768, 96, 4), (768, 64, 2),
    ])
    func shrinkOnLoadKeepsThreeTimesTheTarget(_ example: (Int, Int, Int)) {
        let (side, target, expected) = example
        let numerator = Thumbnailer.jpegScaleNumerator(
            width: side, height: side, targetWidth: target, targetHeight: target)
        #expect(numerator == expected)
        #expect((side * numerator + 7) / 8 >= 3 * target - 2 || numerator == 8)
    }

    @Test func aRoundedUpTargetDoesNotForceTheNextScale() {
        // 1536x1024 into 256 px is 256x171 (170.7 rounded up): 4/8 gives 768x512, three times the exact size.
        #expect(Thumbnailer.jpegScaleNumerator(width: 1536, height: 1024, targetWidth: 256, targetHeight: 171) == 4)
        // One more row of target is past it.
        #expect(Thumbnailer.jpegScaleNumerator(width: 1536, height: 1024, targetWidth: 256, targetHeight: 172) == 8)
    }

    @Test func bothAxesCount() {
        // 4000x1000 into 256x128: the height needs 384 rows, so 4/8 (500 rows), not the width's 2/8.
        #expect(Thumbnailer.jpegScaleNumerator(width: 4000, height: 1000, targetWidth: 256, targetHeight: 128) == 4)
    }

    /// A 2400x1600 JPEG whose full decode is over a 1-megapixel limit.
    static var largeJPEG: Data { Data(largeJPEGBytes) }

    /// The encoded bytes, made once. An array rather than a stored `Data`: `Data` keeps its storage behind
    /// an enum's tagged pointer, which LeakSanitizer cannot follow from a global, so it reported the bytes
    /// as leaked under `scripts/test --sanitize address`.
    private static let largeJPEGBytes: [UInt8] = {
        let image = SyntheticImages.smooth(width: 2400, height: 1600, format: .rgb8)
        return [UInt8]((try? image.encoded(as: .jpeg(quality: 80))) ?? Data())
    }()

    @Test func thePixelLimitAppliesToTheReducedDecode() throws {
        let limit = 1_000_000
        #expect(throws: ImageDecodingError.tooLarge(width: 2400, height: 1600, limit: limit)) {
            try Image(data: Self.largeJPEG, options: .init(pixelLimit: limit))
        }
        let thumbnail = try Thumbnailer(.init(size: .box(256), pixelLimit: limit)).thumbnail(data: Self.largeJPEG)
        #expect(thumbnail.width == 256 && thumbnail.height == 171)
        // A target that needs the full-size decode is refused by the same limit.
        #expect(throws: ImageProcessingError.decoding(.tooLarge(width: 2400, height: 1600, limit: limit))) {
            try Thumbnailer(.init(size: .box(1500), pixelLimit: limit)).thumbnail(data: Self.largeJPEG)
        }
    }

    @Test func theSourceLimitIsCheckedFromTheHeader() {
        #expect(throws: ImageProcessingError.sourceTooLarge(width: 2400, height: 1600, limit: 3_000_000)) {
            try Thumbnailer(.init(sourcePixelLimit: 3_000_000)).thumbnail(data: Self.largeJPEG)
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeDecoding() throws {
        // 60000x60000 claimed by a small file: 3.6 gigapixels, over the default source limit.
        let small = try JPEGTestImages.encode(JPEGTestImages.colour())
        let patched = Data(JPEGTestImages.patchingSize(small, width: 60000, height: 60000))
        #expect(throws: ImageProcessingError.sourceTooLarge(width: 60000, height: 60000, limit: 1_000_000_000)) {
            try Thumbnailer().thumbnail(data: patched)
        }
    }

    @Test func metadataIsKeptAndOrientationReset() throws {
        var image = SyntheticImages.smooth(width: 300, height: 200, format: .rgb8)
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.exif = TestImages.exif(orientation: .left)
        image.metadata.orientation = .left
        let jpeg = try image.encoded(as: .jpeg(JPEGEncodeOptions()))
        // No colour conversion: the source profile is kept as it is.
        let thumbnail = try Thumbnailer(.init(size: .box(100), colorConversion: nil)).thumbnail(data: jpeg)
        #expect(thumbnail.width == 67 && thumbnail.height == 100)
        #expect(thumbnail.metadata.orientation == .up)
        #expect(thumbnail.metadata.iccProfile == TestImages.iccProfile())
        let written = try Image(data: try ThumbnailEncoder().encode(thumbnail))
        #expect(written.metadata.orientation == .up && written.metadata.iccProfile != nil)
        let stripped = try Image(data: try ThumbnailEncoder(strips: true).encode(thumbnail))
        #expect(stripped.metadata.iccProfile == nil && stripped.metadata.exif == nil)
    }

    @Test func garbageIsAnUnsupportedFormat() {
        #expect(throws: ImageProcessingError.decoding(.unsupportedFormat(recognized: .text))) {
            try Thumbnailer().thumbnail(data: Data("not an image".utf8))
        }
    }
}
