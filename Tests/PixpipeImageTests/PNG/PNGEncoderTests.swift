import Foundation
import Testing

@testable import PixpipeImage

@Suite struct PNGEncoderTests {
    static let formats: [PixelFormat] = PixelLayout.allCases.flatMap { layout in
        [8, 16].map { PixelFormat(layout: layout, bitsPerSample: $0) }
    }

    @Test(arguments: formats, [false, true])
    func roundTripsEveryLayoutAndDepth(format: PixelFormat, interlaced: Bool) throws {
        let original = TestImages.noise(width: 13, height: 11, format: format)
        let png = try original.encoded(as: .png(PNGEncodeOptions(interlaced: interlaced)))
        let decoded = try Image(data: png, options: DecodeOptions(keeps16Bit: true))
        #expect(decoded.pixelFormat == format)
        #expect(decoded.pixels == original.pixels)
        #expect(decoded.metadata.sourceFormat == .png)
        #expect(decoded.metadata.sourceBitDepth == format.bitsPerSample)
        #expect(decoded.metadata.isInterlaced == interlaced)
    }

    @Test func sixteenBitDecodesToHighBytesByDefault() throws {
        let original = TestImages.noise(width: 5, height: 4, format: PixelFormat(layout: .rgba, bitsPerSample: 16))
        let decoded = try Image(data: original.encoded(as: .png))
        #expect(decoded.pixelFormat == .rgba8)
        #expect(decoded.pixels == original.samples8)
    }

    @Test func writesSixteenBitSamplesBigEndian() throws {
        var image = Image(width: 1, height: 1, pixelFormat: PixelFormat(layout: .gray, bitsPerSample: 16))
        image[x: 0, y: 0, channel: 0] = 0x1234
        let png = [UInt8](try image.encoded(as: .png(PNGEncodeOptions(compressionLevel: 0))))
        // Level 0 stores the row unfiltered inside a stored zlib block: filter byte 0, then 0x12 0x34.
        #expect(png.indices.dropLast(2).contains { png[$0] == 0 && png[$0 + 1] == 0x12 && png[$0 + 2] == 0x34 })
    }

    @Test(arguments: [-1, 10, 100])
    func rejectsCompressionLevelsOutsideZeroToNine(level: Int) {
        let image = Image(width: 1, height: 1, pixelFormat: .gray8)
        #expect(throws: ImageEncodingError.invalidOption("PNG compression level \(level) is not in 0...9")) {
            try image.encoded(as: .png(PNGEncodeOptions(compressionLevel: level)))
        }
    }

    @Test func higherCompressionLevelsWriteSmallerFiles() throws {
        let gradient = Image(
            width: 64, height: 64, pixelFormat: .gray8, pixels: (0..<4096).map { UInt8(($0 % 64) * 4) })
        let stored = try gradient.encoded(as: .png(PNGEncodeOptions(compressionLevel: 0)))
        let smallest = try gradient.encoded(as: .png(PNGEncodeOptions(compressionLevel: 9)))
        #expect(smallest.count < stored.count)
        #expect(try Image(data: smallest).pixels == gradient.pixels)
    }

    @Test func roundTripsICCProfileAndEXIFOrientation() throws {
        var image = TestImages.noise(width: 4, height: 3, format: .rgb8)
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.exif = TestImages.exif(orientation: .right)
        image.metadata.orientation = .right
        let encoded = try image.encoded(as: .png)
        let decoded = try Image(data: encoded)
        #expect(decoded.metadata.warnings.isEmpty, "\(decoded.metadata.warnings)")
        #expect(Self.chunkCount("eXIf", in: encoded) == 1)
        #expect(decoded.metadata.iccProfile == TestImages.iccProfile())
        #expect(decoded.metadata.exif == TestImages.exif(orientation: .right))
        #expect(decoded.metadata.orientation == .right)
        let info = try Image.info(data: image.encoded(as: .png))
        #expect(info.metadata.orientation == .right)
        #expect(info.metadata.iccProfile == TestImages.iccProfile())
    }

    @Test func writesTheImageOrientationIntoTheEXIFBlock() throws {
        // An image turned upright keeps its source EXIF block; the file must not ask for another turn.
        var upright = TestImages.noise(width: 3, height: 4, format: .gray8)
        upright.metadata.exif = TestImages.exif(orientation: .right)
        upright.metadata.orientation = .up
        let decoded = try Image(data: upright.encoded(as: .png))
        #expect(decoded.metadata.orientation == .up)
        #expect(decoded.metadata.exif == TestImages.exif(orientation: .up))
    }

    @Test func leavesOutMetadataWhenAsked() throws {
        var image = TestImages.noise(width: 4, height: 3, format: .rgb8)
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.exif = TestImages.exif(orientation: .left)
        let options = PNGEncodeOptions(includesICCProfile: false, includesEXIF: false)
        let decoded = try Image(data: image.encoded(as: .png(options)))
        #expect(decoded.metadata.iccProfile == nil)
        #expect(decoded.metadata.exif == nil)
        #expect(decoded.metadata.orientation == .up)
    }

    @Test func dropsAProfileThatDoesNotSuitTheImage() throws {
        var image = TestImages.noise(width: 2, height: 2, format: .rgb8)
        image.metadata.iccProfile = TestImages.iccProfile(colorSpace: "GRAY")
        let decoded = try Image(data: image.encoded(as: .png))
        #expect(decoded.metadata.iccProfile == nil)
        #expect(decoded.pixels == image.pixels)
    }

    /// How many chunks of `type` the PNG file `data` holds.
    static func chunkCount(_ type: String, in data: Data) -> Int {
        let bytes = [UInt8](data)
        var offset = 8
        var count = 0
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { count += 1 }
            offset += 12 + length
        }
        return count
    }

    @Test func aFileWrittenAsItIsEncodedHoldsOneEXIFChunk() throws {
        var image = TestImages.noise(width: 5, height: 4, format: .rgb8)
        image.metadata.exif = TestImages.exif(orientation: .left)
        image.metadata.orientation = .left
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        try image.write(to: url, as: .png)
        let written = try Data(contentsOf: url)
        #expect(Self.chunkCount("eXIf", in: written) == 1)
        #expect(try Image(data: written).metadata.warnings.isEmpty)
    }
}
