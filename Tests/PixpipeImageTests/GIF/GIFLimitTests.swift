import Foundation
import Testing

@testable import PixpipeImage

/// GIF bombs are refused from the record walk, before any pixel buffer exists, in well under a second.
@Suite("GIF: limits")
struct GIFLimitTests {
    /// The most a refusal may take (relaxed under a sanitizer).
    static let timeLimit = TestTimeLimit.refusal

    /// A 1x1 canvas holding `count` 1x1 frames: about 17 bytes a frame.
    static func manyFrames(_ count: Int, width: Int = 1, height: Int = 1) -> Data {
        var writer = GIFWriter(width: width, height: height, palette: [(0, 0, 0), (255, 255, 255)])
        for index in 0..<count { writer.frame(width: 1, height: 1, indices: [UInt8(index % 2)]) }
        writer.trailer()
        return Data(writer.bytes)
    }

    /// The error `Image(data:)`, `AnimationReader` and `Image.verify` give for `data`, and the most CPU time
    /// one took.
    static func refusals(_ data: Data, _ options: DecodeOptions = .init()) -> ([ImageDecodingError?], Duration) {
        var errors: [ImageDecodingError?] = []
        var slowest = Duration.zero
        for entry in 0..<3 {
            var failure: ImageDecodingError?
            let elapsed = TestTimeLimit.cpuTime {
                do throws(ImageDecodingError) {
                    switch entry {
                    case 0: _ = try Image(data: data, options: options)
                    case 1: _ = try AnimationReader(data: data, options: options)
                    default: _ = try Image.verify(data: data, options: options)
                    }
                } catch {
                    failure = error
                }
            }
            errors.append(failure)
            slowest = max(slowest, elapsed)
        }
        return (errors, slowest)
    }

    @Test func aThirtyThousandSquareCanvasIsRefused() throws {
        var writer = GIFWriter(width: 30_000, height: 30_000, palette: [(0, 0, 0), (255, 255, 255)])
        writer.frame(width: 1, height: 1, indices: [1])
        writer.trailer()
        let data = Data(writer.bytes)
        let (errors, slowest) = Self.refusals(data)
        let expected = ImageDecodingError.tooLarge(
            width: 30_000, height: 30_000, limit: DecodeOptions.defaultPixelLimit)
        #expect(errors == [expected, expected, expected])
        #expect(slowest < Self.timeLimit)
        // The header is still readable, and the thumbnailer refuses it from there.
        #expect(try Image.info(data: data).width == 30_000)
        #expect(throws: ImageProcessingError.self) { try Thumbnailer().thumbnail(data: data) }
    }

    @Test func aHundredThousandFramesAreRefused() throws {
        let data = Self.manyFrames(100_000)
        let (errors, slowest) = Self.refusals(data)
        // The walk stops one frame past the limit, so the refusal names that many.
        let expected = ImageDecodingError.tooManyFrames(
            count: DecodeOptions.defaultFrameLimit + 1, limit: DecodeOptions.defaultFrameLimit)
        #expect(errors == [expected, expected, expected])
        #expect(slowest < Self.timeLimit, "\(slowest)")
        // The walk counts them all without decoding.
        var info: ImageInfo?
        let counting = try TestTimeLimit.cpuTime { info = try Image.info(data: data) }
        #expect(counting < Self.timeLimit)
        #expect(info?.animation?.frameCount == 100_000)
    }

    @Test func framesTimesCanvasOverTheAnimationLimitIsRefused() throws {
        // 3,000 frames of a megapixel; the walk stops at the 1,001st, the first over the limit.
        let data = Self.manyFrames(3_000, width: 1_000, height: 1_000)
        let (errors, _) = Self.refusals(data)
        let expected = ImageDecodingError.animationTooLarge(
            width: 1_000, height: 1_000, frames: 1_001, limit: DecodeOptions.defaultAnimationPixelLimit)
        #expect(errors == [expected, expected, expected])
        // Lifting the limits lets the same walk through.
        let lifted = DecodeOptions(frameLimit: nil, animationPixelLimit: nil)
        #expect(try AnimationReader(data: Self.manyFrames(20_000), options: lifted).frameCount == 20_000)
    }
}
