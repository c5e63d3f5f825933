import Foundation
import Testing

@testable import PixpipeImage

/// WebP through the codec table: encoding, metadata, animation, damaged input and limits.
struct WebPCodecTests {
    /// A smooth photo-like RGB image (lossy coding of noise would be meaningless).
    static let photo = SyntheticImages.smooth(width: 96, height: 64, format: .rgb8)
    /// The same with a varying alpha channel.
    static let translucent = SyntheticImages.smooth(width: 96, height: 64, format: .rgba8)

    @Test("Lossless WebP keeps every sample, with and without alpha")
    func losslessRoundTrip() throws {
        for image in [Self.photo, Self.translucent, TestImages.noise(width: 33, height: 17, format: .rgba8)] {
            let data = try image.encoded(as: .webpLossless)
            #expect(ImageFormat.sniff(data) == .webp)
            let decoded = try Image(data: data)
            #expect(decoded.pixelFormat == image.pixelFormat)
            #expect(decoded.pixels == image.pixels)
        }
    }

    @Test("Lossy WebP is close to the source and smaller at lower quality")
    func lossyRoundTrip() throws {
        let high = try Self.photo.encoded(as: .webp(quality: 90))
        let low = try Self.photo.encoded(as: .webp(quality: 20))
        #expect(low.count < high.count)
        let decoded = try Image(data: high)
        #expect(decoded.width == 96 && decoded.height == 64 && decoded.pixelFormat == .rgb8)
        #expect(decoded.psnr(Self.photo) > 30)
        let withAlpha = try Image(data: Self.translucent.encoded(as: .webp))
        #expect(withAlpha.pixelFormat == .rgba8)
        #expect(withAlpha.converted(to: .gray8).psnr(Self.translucent.converted(to: .gray8)) > 25)
    }

    @Test("Gray and 16-bit images are widened and reduced to what WebP stores")
    func grayAndSixteenBit() throws {
        let gray = SyntheticImages.smooth(width: 20, height: 10, format: PixelFormat(layout: .gray, bitsPerSample: 16))
        let decoded = try Image(data: gray.encoded(as: .webpLossless))
        #expect(decoded.pixelFormat == .rgb8)
        #expect(decoded.converted(to: .gray8).pixels == gray.converted(to: .gray8).pixels)
    }

    @Test("ICC and EXIF are written and read back; the orientation is reported and applied")
    func metadataRoundTrip() throws {
        var image = Self.photo
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.exif = TestImages.exif(orientation: .right)
        image.metadata.orientation = .right
        let data = try image.encoded(as: .webp)
        let info = try Image.info(data: data)
        #expect(info.metadata.iccProfile == TestImages.iccProfile())
        #expect(info.metadata.orientation == .right)
        let decoded = try Image(data: data)
        #expect(decoded.metadata.orientation == .right)
        #expect(decoded.applyingOrientation().width == 64)
        let stripped = try Image(
            data: image.encoded(as: .webp(WebPEncodeOptions(includesICCProfile: false, includesEXIF: false))))
        #expect(stripped.metadata.iccProfile == nil && stripped.metadata.exif == nil)
    }

    @Test("Options out of range and images too large for WebP are typed errors")
    func encodingErrors() {
        #expect(throws: ImageEncodingError.self) { try Self.photo.encoded(as: .webp(quality: 0)) }
        #expect(throws: ImageEncodingError.self) {
            try Self.photo.encoded(as: .webp(WebPEncodeOptions(method: 7)))
        }
        let wide = Image(width: 16384, height: 1, pixelFormat: .gray8)
        #expect(throws: ImageEncodingError.self) { try wide.encoded(as: .webp) }
    }

    /// Three frames of different colours, 80, 120 and 40 ms, looping twice.
    static func animation() throws -> Data {
        let frames = [(255, 80), (128, 120), (0, 40)].enumerated().map { index, frame in
            AnimationFrame(
                index: index,
                image: SyntheticImages.constant(width: 24, height: 16, format: .rgba8, value: frame.0, alpha: 255),
                duration: .milliseconds(frame.1))
        }
        return try ImageEncoding.webpLossless.encodeAnimation(frames, loopCount: 2)
    }

    @Test("An animation keeps its frames, delays and loop count; Image(data:) is its first frame")
    func animationRoundTrip() throws {
        let data = try Self.animation()
        let info = try Image.info(data: data)
        #expect(info.animation == AnimationInfo(frameCount: 3, loopCount: 2, duration: .milliseconds(240)))
        let reader = try AnimationReader(data: data)
        #expect(reader.frameCount == 3 && reader.loopCount == 2)
        #expect(reader.canvasWidth == 24 && reader.canvasHeight == 16)
        let frames = try reader.allFrames()
        #expect(frames.map(\.duration) == [.milliseconds(80), .milliseconds(120), .milliseconds(40)])
        #expect(frames.map { $0.image[x: 3, y: 3, channel: 0] } == [255, 128, 0])
        #expect(try Image(data: data).pixels == frames[0].image.pixels)
        #expect(try Image.verify(data: data).width == 24)
    }

    @Test("A still image read as an animation is one frame")
    func stillAsAnimation() throws {
        let reader = try AnimationReader(data: Self.photo.encoded(as: .webp))
        #expect(reader.frameCount == 1)
        #expect(try reader.allFrames().count == 1)
    }

    @Test("Too many frames, or too many pixels over all frames, are refused from the header")
    func animationLimits() throws {
        let data = try Self.animation()
        #expect(throws: ImageDecodingError.tooManyFrames(count: 3, limit: 2)) {
            try AnimationReader(data: data, options: DecodeOptions(frameLimit: 2))
        }
        #expect(throws: ImageDecodingError.animationTooLarge(width: 24, height: 16, frames: 3, limit: 1000)) {
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: 1000))
        }
    }

    /// The start of a download of a huge image: a VP8X header declaring a `width` x `height` canvas, whose
    /// RIFF size promises a megabyte more that never comes.
    static func extendedHeader(width: Int, height: Int) -> Data {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let chunk = Array("VP8X".utf8) + le(10, 4) + [0, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3)
        return Data(Array("RIFF".utf8) + le(4 + chunk.count + (1 << 20), 4) + Array("WEBP".utf8) + chunk)
    }

    @Test("A huge declared canvas is refused from the header, before any allocation")
    func canvasLimit() {
        let bomb = Self.extendedHeader(width: 16383, height: 16383)
        #expect(
            throws: ImageDecodingError.tooLarge(width: 16383, height: 16383, limit: DecodeOptions.defaultPixelLimit)
        ) {
            try Image(data: bomb)
        }
        #expect(throws: ImageDecodingError.self) { try AnimationReader(data: bomb) }
    }

    @Test("Cut anywhere, a WebP is a typed error in strict mode; lenient mode keeps the rows it could decode")
    func truncation() throws {
        let data = try Self.photo.encoded(as: .webp)
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 40)) {
            let cut = data.prefix(length)
            #expect(throws: ImageDecodingError.self, "cut at \(length)") { try Image(data: cut) }
        }
        let half = data.prefix(data.count * 3 / 4)
        let lenient = try Image(data: half, options: DecodeOptions(strictness: .lenient))
        #expect(lenient.width == 96 && lenient.height == 64)
        #expect(lenient.metadata.warnings.contains { $0.kind == .truncated })
    }

    @Test("A RIFF size larger than the file around a whole image, or bytes after the payload, are benign")
    func benignContainerAnomalies() throws {
        let data = try Self.photo.encoded(as: .webpLossless)
        let clean = try Image(data: data)
        var oversized = [UInt8](data)
        let size = UInt32(data.count - 8 + 100).littleEndian
        withUnsafeBytes(of: size) { for index in 0..<4 { oversized[4 + index] = $0[index] } }
        let patched = try Image(data: Data(oversized))
        #expect(patched.pixels == clean.pixels)
        #expect(patched.metadata.warnings.map(\.code) == ["webp-riff-size"])
        #expect(patched.metadata.warnings.allSatisfy { $0.kind == .benign })
        let trailing = try Image(data: data + Data(repeating: 0x55, count: 37))
        #expect(trailing.pixels == clean.pixels)
        #expect(trailing.metadata.warnings.map(\.code) == ["webp-trailing-data"])
        #expect(trailing.metadata.warnings.allSatisfy { $0.kind == .benign })
    }

    @Test("A damaged bitstream is a typed error, never a crash")
    func damage() throws {
        let data = try Self.photo.encoded(as: .webp)
        for offset in stride(from: 30, to: data.count, by: 7) {
            var damaged = data
            damaged[offset] ^= 0xFF
            _ = try? Image(data: damaged)
            _ = try? Image(data: damaged, options: DecodeOptions(strictness: .lenient))
        }
    }

    @Test("Thumbnails decode through libwebp's scaling, upright, within the box")
    func thumbnails() throws {
        var image = SyntheticImages.smooth(width: 640, height: 480, format: .rgb8)
        image.metadata.exif = TestImages.exif(orientation: .right)
        image.metadata.orientation = .right
        let data = try image.encoded(as: .webp(quality: 95))
        let thumbnail = try Thumbnailer(ThumbnailOptions(size: .box(64))).thumbnail(data: data)
        #expect(thumbnail.width == 48 && thumbnail.height == 64)
        let reference = try Thumbnailer(ThumbnailOptions(size: .box(64))).thumbnail(of: Image(data: data))
        #expect(thumbnail.psnr(reference) > 35)
        let animated = try Thumbnailer(ThumbnailOptions(size: .box(8))).thumbnail(data: Self.animation())
        #expect(animated.width == 8 && animated.height == 5)
    }
}

/// Animated WebP files cut short.
struct WebPAnimationTruncationTests {
    @Test("A cut animation is an error in strict mode; lenient mode keeps the whole frames, the last warned")
    func cutAnimation() throws {
        let data = try WebPCodecTests.animation()
        let whole = try AnimationReader(data: data).allFrames()
        var sawPartial = false
        for length in stride(from: 40, to: data.count - 1, by: 3) {
            let cut = data.prefix(length)
            #expect(throws: ImageDecodingError.self, "cut at \(length)") { try AnimationReader(data: cut).allFrames() }
            guard let frames = try? AnimationReader(data: cut, options: DecodeOptions(strictness: .lenient)).allFrames()
            else { continue }
            #expect(!frames.isEmpty && frames.count < 3, "cut at \(length)")
            #expect(frames.map(\.image.pixels) == whole.prefix(frames.count).map(\.image.pixels))
            #expect(frames.last?.image.metadata.warnings.map(\.code) == ["webp-truncated"])
            sawPartial = true
        }
        #expect(sawPartial)
    }
}
