import Foundation
import Testing

@testable import PixpipeImage

@Suite struct PNGDecoderTests {
    /// A small valid PNG with an ancillary chunk before the image data, written by the encoder.
    static let smallPNG: [UInt8] = {
        var image = TestImages.noise(width: 6, height: 5, format: .rgb8)
        image.metadata.exif = TestImages.exif(orientation: .down)
        image.metadata.orientation = .down
        return [UInt8](try! image.encoded(as: .png))
    }()

    static func decode(_ bytes: [UInt8], options: DecodeOptions = .init()) throws(ImageDecodingError) -> Image {
        let result: Result<Image, ImageDecodingError> = bytes.withUnsafeBytes { raw in
            do throws(ImageDecodingError) { return .success(try PNGDecoder.decode(raw, options: options)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    static func decodeError(_ bytes: [UInt8], options: DecodeOptions = .init()) -> ImageDecodingError.Case? {
        #expect(throws: ImageDecodingError.self) { try decode(bytes, options: options) }?.case
    }

    @Test func shortInputsAreTruncated() {
        #expect(Self.decodeError([]) == .truncated)
        #expect(Self.decodeError([0x89]) == .truncated)
        #expect(Self.decodeError(PNGBytes.signature) == .truncated)
    }

    @Test func wrongMagicIsCorruptForTheDecoderAndUnsupportedForSniffing() {
        var bytes = Self.smallPNG
        bytes[1] = UInt8(ascii: "J")
        #expect(Self.decodeError(bytes) == .corrupt)
        #expect(throws: ImageDecodingError.unsupportedFormat()) { try Image(data: Data(bytes)) }
        #expect(throws: ImageDecodingError.unsupportedFormat(recognized: .empty)) { try Image(data: Data()) }
    }

    @Test(arguments: PNGBytes.chunks(of: smallPNG).map(\.end).dropLast() + [PNGBytes.signature.count])
    func truncationAtEveryChunkBoundaryIsTruncated(length: Int) {
        #expect(Self.decodeError(Array(Self.smallPNG.prefix(length))) == .truncated)
    }

    @Test(arguments: PNGBytes.chunks(of: smallPNG).map(\.type))
    func aCRCErrorInAnyChunkIsCorrupt(type: String) throws {
        let chunk = try #require(PNGBytes.chunks(of: Self.smallPNG).first { $0.type == type })
        var bytes = Self.smallPNG
        bytes[chunk.end - 1] ^= 0x01  // the CRC's last byte
        if type == "eXIf" {
            // A damaged ancillary chunk no pixel depends on is discarded with a benign warning.
            let image = try Self.decode(bytes)
            #expect(image.pixels == (try Self.decode(Self.smallPNG)).pixels)
            #expect(image.metadata.warnings.contains { $0.code == "png-ancillary-chunk" })
            return
        }
        #expect(Self.decodeError(bytes) == .corrupt)
        let lenient = DecodeOptions(strictness: .lenient)
        if type == "IDAT" || type == "IEND" {
            // Damage in or after the image data leaves an image to return, with a warning.
            // (The fixture's second eXIf is a benign duplicate, so only the pixel-losing warnings are compared.)
            let warnings = try Self.decode(bytes, options: lenient).metadata.warnings
            #expect(warnings.filter { $0.losesPixels }.map(\.kind) == [.corrupt])
        } else {
            #expect(Self.decodeError(bytes, options: lenient) == .corrupt)
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeAllocating() throws {
        let bytes =
            PNGBytes.signature + PNGBytes.ihdr(width: 100_000, height: 100_000) + PNGBytes.chunk("IDAT", [0x78, 0x9C])
            + PNGBytes.chunk("IEND", [])
        let clock = ContinuousClock()
        var error: ImageDecodingError?
        let elapsed = clock.measure {
            error = #expect(throws: ImageDecodingError.self) { try Self.decode(bytes) }
        }
        #expect(error == .tooLarge(width: 100_000, height: 100_000, limit: DecodeOptions.defaultPixelLimit))
        #expect(elapsed < .seconds(1))
        let info = try Image.info(data: Data(bytes))
        #expect(info.width == 100_000 && info.height == 100_000 && info.pixelFormat == .gray8)
    }

    @Test func pixelLimitCountsWidthTimesHeight() throws {
        let png = Self.smallPNG  // 6x5 = 30 pixels
        #expect(throws: ImageDecodingError.tooLarge(width: 6, height: 5, limit: 29)) {
            try Self.decode(png, options: DecodeOptions(pixelLimit: 29))
        }
        #expect(try Self.decode(png, options: DecodeOptions(pixelLimit: 30)).pixelCount == 30)
    }

    @Test func invalidHeaderValuesAreCorrupt() {
        let badDepth = PNGBytes.signature + PNGBytes.ihdr(width: 1, height: 1, bitDepth: 3) + PNGBytes.chunk("IEND", [])
        let zeroWidth = PNGBytes.signature + PNGBytes.ihdr(width: 0, height: 1) + PNGBytes.chunk("IEND", [])
        #expect(Self.decodeError(badDepth) == .corrupt)
        #expect(Self.decodeError(zeroWidth) == .corrupt)
    }

    @Test func truncationInsideTheImageDataIsAWarningWhenLenient() throws {
        // Stored (level 0) data in several IDAT chunks, so the first rows arrive before the cut.
        let original = TestImages.noise(width: 64, height: 64, format: .rgb8)
        let png = [UInt8](try original.encoded(as: .png(PNGEncodeOptions(compressionLevel: 0))))
        let lastData = try #require(PNGBytes.chunks(of: png).last { $0.type == "IDAT" })
        let cut = Array(png.prefix(lastData.dataStart + 10))
        #expect(Self.decodeError(cut) == .truncated)

        let image = try Self.decode(cut, options: DecodeOptions(strictness: .lenient))
        #expect(image.metadata.warnings.map(\.kind) == [.truncated])
        #expect(image.width == 64 && image.height == 64 && image.pixelFormat == .rgb8)
        let rowBytes = image.bytesPerRow
        #expect(image.pixels.prefix(rowBytes) == original.pixels.prefix(rowBytes))
        #expect(image.pixels.suffix(rowBytes).allSatisfy { $0 == 0 })
    }

    @Test func aMissingIENDIsAWarningWhenLenient() throws {
        let withoutEnd = Array(Self.smallPNG.dropLast(12))
        #expect(Self.decodeError(withoutEnd) == .truncated)
        let image = try Self.decode(withoutEnd, options: DecodeOptions(strictness: .lenient))
        // The fixture's second eXIf (after the image data) is a benign duplicate: only truncation loses pixels.
        #expect(image.metadata.warnings.filter { $0.losesPixels }.map(\.kind) == [.truncated])
        #expect(image.pixels == (try Self.decode(Self.smallPNG)).pixels)
    }

    @Test func infoReadsTheHeaderWithoutThePixels() throws {
        // Everything after the first IDAT header is gone, yet the header facts are all there.
        let idat = try #require(PNGBytes.chunks(of: Self.smallPNG).first { $0.type == "IDAT" })
        let headerOnly = Array(Self.smallPNG.prefix(idat.dataStart))
        let info = try Image.info(data: Data(headerOnly))
        #expect(info.format == .png)
        #expect(info.width == 6 && info.height == 5 && info.pixelFormat == .rgb8)
        #expect(info.metadata.orientation == .down)
        #expect(info.metadata.sourceBitDepth == 8)
    }

    @Test func sixteenBitInfoReportsSixteenBits() throws {
        let image = TestImages.noise(width: 2, height: 2, format: PixelFormat(layout: .grayAlpha, bitsPerSample: 16))
        let info = try Image.info(data: image.encoded(as: .png))
        #expect(info.pixelFormat == PixelFormat(layout: .grayAlpha, bitsPerSample: 16))
        #expect(info.metadata.sourceBitDepth == 16)
    }
}

extension PNGDecoderTests {
    @Test func truncatedInterlacedImageDataIsAWarningWhenLenient() throws {
        let original = TestImages.noise(width: 64, height: 64, format: .rgba8)
        let options = PNGEncodeOptions(compressionLevel: 0, interlaced: true)
        let png = [UInt8](try original.encoded(as: .png(options)))
        let lastData = try #require(PNGBytes.chunks(of: png).last { $0.type == "IDAT" })
        let cut = Array(png.prefix(lastData.dataStart + 10))
        #expect(Self.decodeError(cut) == .truncated)
        let image = try Self.decode(cut, options: DecodeOptions(strictness: .lenient))
        #expect(image.metadata.warnings.map(\.kind) == [.truncated])
        #expect(image.metadata.isInterlaced)
        // The first Adam7 pass holds pixel (0, 0), so it arrived before the cut.
        #expect((0..<4).map { image[x: 0, y: 0, channel: $0] } == (0..<4).map { original[x: 0, y: 0, channel: $0] })
    }
}
