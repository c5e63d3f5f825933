import Foundation
import Testing

@testable import PixpipeImage

@Suite struct JPEGEncoderTests {
    typealias Fixtures = JPEGTestImages

    @Test func grayRoundTripStaysGrayAndClose() throws {
        let original = Fixtures.gray()
        let bytes = try Fixtures.encode(original, .init(quality: 95))
        let decoded = try Fixtures.decode(bytes)
        #expect(decoded.pixelFormat == .gray8)
        #expect(decoded.width == original.width && decoded.height == original.height)
        #expect(Fixtures.psnr(decoded.pixels, original.pixels) > 40)
        let sof = try #require(Fixtures.frameOffset(in: bytes))
        #expect(bytes[sof + 9] == 1, "one component")
    }

    @Test(arguments: JPEGEncodeOptions.ChromaSubsampling.allCases)
    func colourRoundTripUsesTheAskedSubsampling(subsampling: JPEGEncodeOptions.ChromaSubsampling) throws {
        let original = Fixtures.colour(width: 61, height: 37)  // odd sizes: partial MCUs
        let bytes = try Fixtures.encode(original, .init(quality: 95, chromaSubsampling: subsampling))
        let sof = try #require(Fixtures.frameOffset(in: bytes))
        #expect(bytes[sof + 9] == 3, "three components")
        let lumaSampling = bytes[sof + 11]
        let expected: UInt8 =
            switch subsampling {
            case .s444: 0x11
            case .s422: 0x21
            case .s420: 0x22
            }
        #expect(lumaSampling == expected)
        let decoded = try Fixtures.decode(bytes)
        #expect(decoded.pixelFormat == .rgb8)
        #expect(decoded.width == 61 && decoded.height == 37)
        #expect(Fixtures.psnr(decoded.pixels, original.pixels) > 35)
    }

    @Test func progressiveWritesSOF2AndDecodesLikeBaseline() throws {
        let original = Fixtures.colour()
        let progressive = try Fixtures.encode(original, .init(quality: 90, progressive: true))
        let baseline = try Fixtures.encode(original, .init(quality: 90))
        #expect(Fixtures.markerOffset(0xC2, in: progressive) != nil)
        #expect(Fixtures.markerOffset(0xC0, in: progressive) == nil)
        let decoded = try Fixtures.decode(progressive)
        #expect(decoded.metadata.isInterlaced)
        #expect(try Fixtures.decode(baseline).metadata.isInterlaced == false)
        #expect(Fixtures.psnr(decoded.pixels, try Fixtures.decode(baseline).pixels) > 45)
    }

    @Test func qualityTradesSizeForFidelity() throws {
        let original = Fixtures.colour(width: 128, height: 96)
        let low = try Fixtures.encode(original, .init(quality: 20))
        let high = try Fixtures.encode(original, .init(quality: 95))
        #expect(low.count < high.count)
        let lowPSNR = Fixtures.psnr(try Fixtures.decode(low).pixels, original.pixels)
        let highPSNR = Fixtures.psnr(try Fixtures.decode(high).pixels, original.pixels)
        #expect(lowPSNR < highPSNR)
        #expect(highPSNR > 38)
    }

    @Test func optimizedHuffmanTablesAreSmaller() throws {
        let original = Fixtures.colour(width: 128, height: 96)
        let optimized = try Fixtures.encode(original, .init(optimizesHuffmanTables: true))
        let standard = try Fixtures.encode(original, .init(optimizesHuffmanTables: false))
        #expect(optimized.count < standard.count)
    }

    @Test(arguments: [0, -5, 101])
    func qualityOutOfRangeIsRejected(quality: Int) {
        #expect(throws: ImageEncodingError.invalidOption("JPEG quality must be in 1...100, not \(quality)")) {
            try Fixtures.colour().encoded(as: .jpeg(quality: quality))
        }
    }

    @Test func alphaIsCompositedOverWhite() throws {
        var image = Image(width: 16, height: 16, pixelFormat: .rgba8)
        for y in 0..<16 {
            for x in 0..<16 { image[x: x, y: y, channel: 0] = 255 }  // red, fully transparent
        }
        let decoded = try Fixtures.decode(try Fixtures.encode(image, .init(quality: 95)))
        #expect(decoded.pixelFormat == .rgb8)
        #expect(decoded.pixels.allSatisfy { $0 >= 250 }, "transparent pixels become white")
    }

    @Test func sixteenBitGrayAlphaBecomesEightBitGray() throws {
        var image = Image(width: 8, height: 8, pixelFormat: PixelFormat(layout: .grayAlpha, bitsPerSample: 16))
        for y in 0..<8 {
            for x in 0..<8 {
                image[x: x, y: y, channel: 0] = 0x8000
                image[x: x, y: y, channel: 1] = 0xFFFF
            }
        }
        let decoded = try Fixtures.decode(try Fixtures.encode(image, .init(quality: 100)))
        #expect(decoded.pixelFormat == .gray8)
        #expect(decoded.pixels.allSatisfy { abs(Int($0) - 0x80) <= 1 })
    }

    @Test func iccProfileSpanningSeveralMarkersRoundTrips() throws {
        var image = Fixtures.colour()
        let profile = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        image.metadata.iccProfile = profile
        let decoded = try Fixtures.decode(try Fixtures.encode(image))
        #expect(decoded.metadata.iccProfile == profile)
        let withoutProfile = try Fixtures.decode(try Fixtures.encode(image, .init(includesICCProfile: false)))
        #expect(withoutProfile.metadata.iccProfile == nil)
    }

    @Test func exifOrientationFollowsTheMetadata() throws {
        var image = Fixtures.colour()
        image.metadata.exif = EXIFReaderTests.tiff(orientation: 6, bigEndian: true)
        image.metadata.orientation = .up  // for example after the pixels were turned upright
        let upright = try Fixtures.decode(try Fixtures.encode(image))
        #expect(upright.metadata.orientation == .up)
        #expect(upright.metadata.exif.map { EXIFReader.orientation(tiff: $0) } == .up)

        image.metadata.orientation = .left
        #expect(try Fixtures.decode(try Fixtures.encode(image)).metadata.orientation == .left)

        image.metadata.exif = nil
        image.metadata.orientation = .right
        #expect(try Fixtures.decode(try Fixtures.encode(image)).metadata.orientation == .right)
        let withoutEXIF = try Fixtures.decode(try Fixtures.encode(image, .init(includesEXIF: false)))
        #expect(withoutEXIF.metadata.exif == nil)
        #expect(withoutEXIF.metadata.orientation == .up)
    }

    @Test func resolutionIsWrittenInTheJFIFHeader() throws {
        var image = Fixtures.gray()
        image.metadata.dotsPerInch = .init(x: 300, y: 150)
        let decoded = try Fixtures.decode(try Fixtures.encode(image))
        #expect(decoded.metadata.dotsPerInch == .init(x: 300, y: 150))
    }

    @Test func encodesThroughThePublicAPI() throws {
        let data = try Fixtures.colour().encoded(as: .jpeg)
        #expect(ImageFormat.sniff(data) == .jpeg)
        let image = try Image(data: data)
        #expect(image.metadata.sourceFormat == .jpeg && image.metadata.sourceBitDepth == 8)
    }
}
