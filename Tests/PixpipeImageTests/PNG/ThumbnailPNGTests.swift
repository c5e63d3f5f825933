import Foundation
import Testing

@testable import PixpipeImage

@Suite("Thumbnail: streaming PNG")
struct ThumbnailPNGTests {
    static let formats: [PixelFormat] = [
        .gray8, .rgb8, .rgba8, .grayAlpha8, PixelFormat(layout: .rgb, bitsPerSample: 16),
    ]

    /// The largest difference between two images' samples.
    static func maximumDifference(_ first: Image, _ second: Image) -> Int {
        zip(first.pixels, second.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Streaming gives the pixels of a full decode followed by the same resize.
    @Test(arguments: formats)
    func streamingMatchesAFullDecode(_ format: PixelFormat) throws {
        let image = SyntheticImages.smooth(width: 700, height: 500, format: format)
        let noise = TestImages.noise(width: 700, height: 500, format: format)
        var mixed = image
        // Every eighth pixel is noise, so sharp detail goes through the filter too.
        for y in stride(from: 0, to: 500, by: 8) {
            for x in stride(from: 0, to: 700, by: 8) {
                for channel in 0..<format.channels {
                    mixed[x: x, y: y, channel: channel] = noise[x: x, y: y, channel: channel]
                }
            }
        }
        let png = try mixed.encoded(as: .png)
        for options in [ThumbnailOptions(size: .box(160)), ThumbnailOptions(size: .box(90), mode: .fill, filter: .box)]
        {
            let thumbnail = try Thumbnailer(options).thumbnail(data: png)
            let plan = try ThumbnailGeometry(sourceWidth: 700, sourceHeight: 500, options: options)
            var expected = try Image(data: png).resized(
                width: plan.resizedWidth, height: plan.resizedHeight, filter: options.filter)
            if let crop = plan.crop { expected = try expected.cropped(to: crop) }
            #expect(thumbnail.width == expected.width && thumbnail.height == expected.height)
            #expect(thumbnail.pixelFormat == expected.pixelFormat)
            #expect(Self.maximumDifference(thumbnail, expected) <= 1)
        }
    }

    @Test func interlacedFilesAreDecodedWholeUnderThePixelLimit() throws {
        let image = SyntheticImages.smooth(width: 300, height: 200, format: .rgb8)
        let png = try image.encoded(as: .png(PNGEncodeOptions(interlaced: true)))
        let thumbnail = try Thumbnailer(.init(size: .box(100))).thumbnail(data: png)
        let expected = try image.resized(width: 100, height: 67)
        #expect(Self.maximumDifference(thumbnail, expected) <= 1)
        #expect(throws: ImageProcessingError.decoding(.tooLarge(width: 300, height: 200, limit: 50_000))) {
            try Thumbnailer(.init(size: .box(100), pixelLimit: 50_000)).thumbnail(data: png)
        }
    }

    @Test func aStreamedPNGIsNotLimitedByItsFullSize() throws {
        let png = try SyntheticImages.smooth(width: 300, height: 200, format: .rgb8).encoded(as: .png)
        let thumbnail = try Thumbnailer(.init(size: .box(100), pixelLimit: 50_000)).thumbnail(data: png)
        #expect(thumbnail.width == 100 && thumbnail.height == 67)
        #expect(throws: ImageProcessingError.sourceTooLarge(width: 300, height: 200, limit: 50_000)) {
            try Thumbnailer(.init(size: .box(100), sourcePixelLimit: 50_000)).thumbnail(data: png)
        }
    }

    @Test func orientationFromEXIFIsApplied() throws {
        var image = SyntheticImages.smooth(width: 300, height: 200, format: .rgb8)
        image.metadata.exif = TestImages.exif(orientation: .right)
        image.metadata.orientation = .right
        let png = try image.encoded(as: .png)
        let thumbnail = try Thumbnailer(.init(size: .box(100))).thumbnail(data: png)
        #expect(thumbnail.width == 67 && thumbnail.height == 100)
        let expected = try image.resized(width: 100, height: 67).applyingOrientation()
        #expect(Self.maximumDifference(thumbnail, expected) <= 1)
    }

    @Test func truncationThrowsWhenStrictAndWarnsWhenLenient() throws {
        let png = [UInt8](try TestImages.noise(width: 200, height: 200, format: .rgb8).encoded(as: .png))
        let truncated = Data(png.prefix(png.count / 2))
        #expect {
            try Thumbnailer(.init(size: .box(50))).thumbnail(data: truncated)
        } throws: { error in
            guard case .decoding(.truncated(.png, _)) = error as? ImageProcessingError else { return false }
            return true
        }
        let lenient = try Thumbnailer(.init(size: .box(50), strictness: .lenient)).thumbnail(data: truncated)
        #expect(lenient.width == 50 && lenient.metadata.warnings.count == 1)
    }
}
