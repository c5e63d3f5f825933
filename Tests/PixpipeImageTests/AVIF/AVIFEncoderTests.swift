import Foundation
import Testing

@testable import PixpipeImage

@Suite("AVIF encoding: round trips, lossless, depth, alpha, metadata")
struct AVIFEncoderTests {
    @Test("lossy round trips keep the size, the layout and the picture", arguments: [PixelFormat.rgb8, .rgba8])
    func lossyRoundTrip(_ format: PixelFormat) throws {
        let image = SyntheticImages.smooth(width: 96, height: 64, format: format)
        let data = try image.encoded(as: .avif(AVIFEncodeOptions(quality: 85, speed: 10)))
        #expect(ImageFormat.sniff(data) == .avif)
        let decoded = try Image(data: data)
        #expect(decoded.width == 96 && decoded.height == 64 && decoded.pixelFormat == format)
        #expect(decoded.metadata.sourceBitDepth == 8)
        #expect(decoded.psnr(image) > 35)
    }

    @Test("quality 100 is lossless for colour, alpha and gray", arguments: [PixelFormat.rgb8, .rgba8, .gray8])
    func lossless(_ format: PixelFormat) throws {
        let image = TestImages.noise(width: 40, height: 30, format: format)
        let decoded = try Image(data: image.encoded(as: .avif(AVIFEncodeOptions(quality: 100, speed: 10))))
        #expect(decoded.pixelFormat == format)
        #expect(decoded.pixels == image.pixels)
    }

    @Test("10 bits: written from 16-bit samples, read back as 16 bits with keeps16Bit")
    func tenBit() throws {
        let image = SyntheticImages.smooth(width: 64, height: 48, format: PixelFormat(layout: .rgb, bitsPerSample: 16))
        let data = try image.encoded(as: .avif(AVIFEncodeOptions(quality: 90, speed: 10, bitDepth: 10)))
        let deep = try Image(data: data, options: DecodeOptions(keeps16Bit: true))
        #expect(deep.pixelFormat == PixelFormat(layout: .rgb, bitsPerSample: 16))
        #expect(deep.metadata.sourceBitDepth == 10)
        #expect(deep.psnr(image) > 35)
        #expect(try Image(data: data).pixelFormat == .rgb8)
        #expect(try Image.info(data: data).pixelFormat == PixelFormat(layout: .rgb, bitsPerSample: 16))
    }

    @Test("depths and layouts are converted: 16 bits to an 8-bit file, 8 bits to 10, gray with alpha")
    func conversions() throws {
        let deep = SyntheticImages.smooth(width: 48, height: 32, format: PixelFormat(layout: .rgba, bitsPerSample: 16))
        let eight = try Image(data: deep.encoded(as: .avif(AVIFEncodeOptions(quality: 90, speed: 10))))
        #expect(eight.pixelFormat == .rgba8 && eight.metadata.sourceBitDepth == 8)
        #expect(eight.psnr(deep) > 35)
        let shallow = SyntheticImages.smooth(width: 48, height: 32, format: .rgb8)
        let ten = try Image(
            data: shallow.encoded(as: .avif(AVIFEncodeOptions(quality: 90, speed: 10, bitDepth: 10))),
            options: DecodeOptions(keeps16Bit: true))
        #expect(ten.metadata.sourceBitDepth == 10 && ten.psnr(shallow) > 35)
        // Gray with alpha is stored as monochrome plus alpha, which reads back as RGBA (as avifdec writes it).
        let grayAlpha = SyntheticImages.smooth(width: 48, height: 32, format: .grayAlpha8)
        let read = try Image(data: grayAlpha.encoded(as: .avif(AVIFEncodeOptions(quality: 90, speed: 10))))
        #expect(read.pixelFormat == .rgba8)
        #expect(read.psnr(grayAlpha.converted(to: .rgba8)) > 35)
    }

    @Test("the ICC profile, the EXIF block and the orientation are kept, or left out when asked")
    func metadata() throws {
        var image = SyntheticImages.smooth(width: 48, height: 32, format: .rgb8)
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.exif = TestImages.exif(orientation: .right)
        image.metadata.orientation = .right
        let decoded = try Image(data: image.encoded(as: .avif(AVIFEncodeOptions(speed: 10))))
        #expect(decoded.metadata.iccProfile == image.metadata.iccProfile)
        #expect(decoded.metadata.exif != nil)
        #expect(decoded.metadata.orientation == .right)
        #expect(decoded.applyingOrientation().width == 32)
        let bare = try Image(
            data: image.encoded(as: .avif(AVIFEncodeOptions(speed: 10, includesICCProfile: false, includesEXIF: false)))
        )
        #expect(bare.metadata.iccProfile == nil && bare.metadata.exif == nil)
        for orientation in Orientation.allCases {
            image.metadata.orientation = orientation
            image.metadata.exif = nil
            let read = try Image(data: image.encoded(as: .avif(AVIFEncodeOptions(speed: 10))))
            #expect(read.metadata.orientation == orientation)
        }
    }

    @Test("lower quality gives a smaller file; bad options are refused")
    func options() throws {
        let image = TestImages.noise(width: 64, height: 64, format: .rgb8)
        let small = try image.encoded(as: .avif(AVIFEncodeOptions(quality: 20, speed: 10)))
        let large = try image.encoded(as: .avif(AVIFEncodeOptions(quality: 90, speed: 10)))
        #expect(small.count < large.count)
        for bad in [AVIFEncodeOptions(quality: 0), AVIFEncodeOptions(speed: 11), AVIFEncodeOptions(bitDepth: 12)] {
            #expect {
                try image.encoded(as: .avif(bad))
            } throws: { error in
                guard case .invalidOption = error as? ImageEncodingError else { return false }
                return true
            }
        }
        #expect(AVIFEncodeOptions(quality: 100).quantizer == 0 && AVIFEncodeOptions(quality: 1).quantizer == 62)
        #expect(ImageEncoding.avif.format == .avif && ImageEncoding.avif(quality: 50).format == .avif)
        let standard = try #require(ImageEncoding.standard(for: .avif, StandardEncodeSettings(quality: 70)))
        #expect((standard.options as? AVIFEncodeOptions)?.quality == 70)
        #expect(ImageFormat.avif.canEncode && ImageFormat.avif.canEncodeAnimation)
    }
}
