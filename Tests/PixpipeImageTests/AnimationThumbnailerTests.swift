import Foundation
import PixpipeImage
import Testing

/// Animated thumbnails through the library: every frame resized alike, timing and loop count kept.
struct AnimationThumbnailerTests {
    /// A 24x16 lossless WebP of three frames (80, 120 and 40 ms, bright to black), looping twice.
    static func threeFrames() throws -> Data { try WebPCodecTests.animation() }

    @Test func everyFrameIsThumbnailedWithItsDurationAndTheLoopCount() throws {
        let thumbnailer = AnimationThumbnailer(options: ThumbnailOptions(size: .box(12)), encoding: .webpLossless)
        let thumbnail = try thumbnailer.thumbnail(data: Self.threeFrames())
        #expect(thumbnail.width == 12 && thumbnail.height == 8)

        let reader = try AnimationReader(data: thumbnail.data)
        #expect(reader.format == .webp && reader.loopCount == 2)
        #expect(reader.canvasWidth == 12 && reader.canvasHeight == 8)
        let frames = try reader.allFrames()
        #expect(frames.map(\.duration) == [.milliseconds(80), .milliseconds(120), .milliseconds(40)])
        #expect(frames.map { $0.image.width } == [12, 12, 12])
        // Each frame keeps its own colour: the first is the brightest, the last black.
        let reds = frames.map { $0.image.converted(to: .rgba8).pixels[0] }
        #expect(reds[0] > reds[1] && reds[1] > reds[2])
    }

    @Test func aStillImageGivesOneFrame() throws {
        let still = try SyntheticImages.smooth(width: 40, height: 20, format: .rgb8).encoded(as: .png)
        let thumbnailer = AnimationThumbnailer(options: ThumbnailOptions(size: .box(10)), encoding: .webpLossless)
        let thumbnail = try thumbnailer.thumbnail(data: still)
        #expect(thumbnail.width == 10 && thumbnail.height == 5)
        #expect(try AnimationReader(data: thumbnail.data).frameCount == 1)
    }

    @Test func failuresKeepTheTypeOfTheStageThatFailed() throws {
        let animation = try Self.threeFrames()
        let png = AnimationThumbnailer(options: ThumbnailOptions(size: .box(12)), encoding: .png)
        #expect(throws: ImageEncodingError.unsupportedFormat(.png)) { try png.thumbnail(data: animation) }

        let limited = AnimationThumbnailer(
            options: ThumbnailOptions(size: .box(12)), encoding: .webpLossless, frameLimit: 2)
        #expect(throws: ImageDecodingError.tooManyFrames(count: 3, limit: 2)) { try limited.thumbnail(data: animation) }

        let empty = AnimationThumbnailer(options: ThumbnailOptions(size: .box(0)), encoding: .webpLossless)
        #expect(throws: ImageProcessingError.invalidThumbnailSize(.box(0))) { try empty.thumbnail(data: animation) }

        let notAnImage = AnimationThumbnailer(options: ThumbnailOptions(), encoding: .webpLossless)
        #expect(throws: ImageDecodingError.unsupportedFormat(recognized: .text)) {
            try notAnImage.thumbnail(data: Data("text".utf8))
        }
    }
}
