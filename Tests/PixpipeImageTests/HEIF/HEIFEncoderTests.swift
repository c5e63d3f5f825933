import Foundation
import Testing

@testable import PixpipeImage

/// HEIC written by the x265 encoder: read back by our decoder and by libheif's `heif-convert`.
@Suite("HEIF encoder")
struct HEIFEncoderTests {
    static func photo(width: Int = 96, height: Int = 64, alpha: Bool = false) -> Image {
        SyntheticImages.smooth(width: width, height: height, format: alpha ? .rgba8 : .rgb8)
    }

    @Test("lossy quality 90 round-trips above 35 dB")
    func lossyRoundTrip() throws {
        let image = Self.photo()
        let data = try image.encoded(as: .heif(quality: 90))
        #expect(ImageFormat.sniff(data) == .heif)
        let decoded = try Image(data: data)
        #expect(decoded.width == 96 && decoded.height == 64)
        #expect(JPEGTestImages.psnr(decoded.samples8, image.samples8) > 35)
    }

    @Test("lossless gives every sample back exactly: 8-bit, with alpha and an ICC profile, 16-bit at 10 bits")
    func lossless() throws {
        let image = Self.photo()
        let decoded = try Image(data: try image.encoded(as: .heif(HEIFEncodeOptions(lossless: true))))
        #expect(decoded.pixels == image.pixels)

        var withProfile = Self.photo(alpha: true)
        withProfile.metadata.iccProfile = Array(repeating: 7, count: 200)
        let decodedWithProfile = try Image(
            data: try withProfile.encoded(as: .heif(HEIFEncodeOptions(lossless: true))))
        #expect(decodedWithProfile.pixels == withProfile.pixels)
        #expect(decodedWithProfile.metadata.iccProfile == withProfile.metadata.iccProfile)

        // 10-bit values held in 16-bit samples as the decoder gives them (shifted up by 6) come back as they were.
        var deep = Image(width: 33, height: 17, pixelFormat: PixelFormat(layout: .rgb, bitsPerSample: 16))
        for y in 0..<17 {
            for x in 0..<33 {
                for channel in 0..<3 {
                    let tenBit = (x * 31 + y * 7 + channel * 300) % 1024
                    deep[x: x, y: y, channel: channel] = tenBit << 6
                }
            }
        }
        let deepFile = try deep.encoded(as: .heif(HEIFEncodeOptions(lossless: true)))
        let deepDecoded = try Image(data: deepFile, options: DecodeOptions(keeps16Bit: true))
        #expect(deepDecoded.pixels == deep.pixels)
    }

    @Test("alpha, ICC, EXIF and XMP are written back")
    func alphaAndMetadata() throws {
        var image = Self.photo(alpha: true)
        image.metadata.iccProfile = Array(repeating: 7, count: 200)
        image.metadata.exif = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]
        image.metadata.xmp = Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8)
        let decoded = try Image(data: try image.encoded(as: .heif(quality: 90)))
        #expect(decoded.pixelFormat == .rgba8)
        #expect(decoded.metadata.iccProfile == image.metadata.iccProfile)
        #expect(decoded.metadata.exif == image.metadata.exif)
        #expect(decoded.metadata.xmp == image.metadata.xmp)
    }

    @Test("16-bit images are written with 10 bits and decode to 16 bits")
    func deep() throws {
        let image = SyntheticImages.smooth(width: 64, height: 48, format: PixelFormat(layout: .rgb, bitsPerSample: 16))
        let data = try image.encoded(as: .heif(quality: 90))
        let info = try Image.info(data: data)
        #expect(info.metadata.sourceBitDepth == 10)
        let decoded = try Image(data: data, options: DecodeOptions(keeps16Bit: true))
        #expect(decoded.pixelFormat.bitsPerSample == 16)
        #expect(
            JPEGTestImages.psnr(decoded.converted(to: .rgb8).samples8, image.converted(to: .rgb8).samples8) > 30)
    }

    @Test("an orientation is written as irot/imir: the decode is the picture turned")
    func orientation() throws {
        var image = Self.photo(width: 64, height: 32)
        image.metadata.orientation = .right
        let decoded = try Image(data: try image.encoded(as: .heif(quality: 95)))
        let expected = image.applyingOrientation()
        #expect(decoded.width == expected.width && decoded.height == expected.height)
        #expect(decoded.applyingOrientation().width == 32)
        // A small picture of colour waves: 4:2:0 chroma costs more here than on a photo.
        #expect(JPEGTestImages.psnr(decoded.applyingOrientation().samples8, expected.samples8) > 28)
    }

    @Test(
        "heif-convert decodes what the encoder writes",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/heif-convert")))
    func heifConvertReadsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.heic")
        let output = folder.appendingPathComponent("out.png")
        let image = Self.photo(alpha: true)
        try image.encoded(as: .heif(quality: 90)).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/heif-convert")
        process.arguments = ["--quiet", input.path, output.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let decoded = try Image(data: Data(contentsOf: output))
        #expect(decoded.width == 96 && decoded.height == 64 && decoded.pixelFormat == .rgba8)
        #expect(JPEGTestImages.psnr(decoded.samples8, image.samples8) > 35)
    }

    @Test("an AVIF listing mif1 goes to AVIF, a HEIC to HEIF: one brand decision")
    func sniffing() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands
        }
        #expect(ImageFormat.sniff(ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("mif1", ["avif", "heic"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("heic", ["mif1", "heic"])) == .heif)
        #expect(ImageFormat.sniff(ftyp("mif1", ["heic"])) == .heif)
        #expect(ImageFormat.sniff(ftyp("msf1", ["hevc"])) == .heif)
        #expect(ImageFormat.sniff(ftyp("isom", ["mp41"])) == nil)
    }
}
