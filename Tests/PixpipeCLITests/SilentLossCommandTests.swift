import Foundation
import Pixpipe
import Testing

/// What `convert` and `thumbnail` used to lose in silence: 16-bit samples, the colours of a wide-gamut
/// image under `--strip`, and (on purpose) the EXIF location of thumbnails.
@Suite("pixpipe silent loss", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct SilentLossCommandTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A little-endian EXIF block: IFD0 with Make ("TestCam", stored out of line) and a GPS pointer, and a
    /// GPS IFD with GPSLatitudeRef "N" and GPSLatitude 51/1 30/1 1234/100.
    static let exifWithLocation: [UInt8] = {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        // Layout: header 8, IFD0 at 8 (2 + 2*12 + 4 = 30 bytes, to 38), Make text at 38 (8 bytes, to 46),
        // GPS IFD at 46 (2 + 2*12 + 4 = 30, to 76), latitude at 76 (24 bytes).
        let ifd0 = u16(2) + entry(0x010F, 2, 8, u32(38)) + entry(0x8825, 4, 1, u32(46)) + u32(0)
        let make = Array("TestCam".utf8) + [0]
        let gps = u16(2) + entry(0x0001, 2, 2, Array("N".utf8) + [0]) + entry(0x0002, 5, 3, u32(76)) + u32(0)
        let latitude = u32(51) + u32(1) + u32(30) + u32(1) + u32(1234) + u32(100)
        return [0x49, 0x49, 42, 0] + u32(8) + ifd0 + make + gps + latitude
    }()

    @Test func thumbnailsDropTheLocationUnlessAsked() throws {
        var photo = TestImages.gradient(width: 120, height: 80, layout: .rgb)
        photo.metadata.exif = Self.exifWithLocation
        #expect(photo.metadata.hasLocation)
        let folder = try TemporaryDirectory()
        let input = try folder.write(try photo.encoded(as: .jpeg), to: "gps.jpg")
        #expect(try Image(contentsOfFile: input).metadata.hasLocation)

        let out = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", input, "--out", out.url.path, "--size", "60"])
        #expect(result.status == 0, "\(result.errors)")
        let thumbnail = try Image(contentsOfFile: out.path("gps.jpg"))
        let exif = try #require(thumbnail.metadata.exif)
        #expect(!thumbnail.metadata.hasLocation)
        // The camera's other facts stay; the latitude's bytes are gone from the file, not just unlinked.
        #expect(String(decoding: exif, as: UTF8.self).contains("TestCam"))
        let wholeFile = [UInt8](try Data(contentsOf: out.url.appendingPathComponent("gps.jpg")))
        let latitudeSeconds: [UInt8] = [0xD2, 0x04, 0, 0, 100, 0, 0, 0]  // 1234/100
        let starts = 0...(wholeFile.count - latitudeSeconds.count)
        #expect(!starts.contains { wholeFile[$0..<$0 + latitudeSeconds.count].elementsEqual(latitudeSeconds) })

        let kept = try tool.run([
            "thumbnail", input, "--out", out.url.path, "--size", "60", "--overwrite", "--keep-location",
        ])
        #expect(kept.status == 0, "\(kept.errors)")
        #expect(try Image(contentsOfFile: out.path("gps.jpg")).metadata.hasLocation)
    }

    /// A 16-bit RGB PNG whose low bytes differ from its high bytes, so 8 bits would lose them.
    static func sixteenBitPNG() throws -> (Image, Data) {
        var image = Image(width: 32, height: 16, pixelFormat: PixelFormat(layout: .rgb, bitsPerSample: 16))
        for y in 0..<16 {
            for x in 0..<32 {
                for channel in 0..<3 { image[x: x, y: y, channel: channel] = x * 2000 + y * 37 + channel * 11 }
            }
        }
        return (image, try image.encoded(as: .png))
    }

    @Test(arguments: ["png", "tiff"])
    func sixteenBitsAreKeptByDefault(outputExtension: String) throws {
        let (original, png) = try Self.sixteenBitPNG()
        let folder = try TemporaryDirectory()
        let input = try folder.write(png, to: "deep.png")
        let output = folder.path("out.\(outputExtension)")
        for options in [[], ["--keep-16-bit"], ["--depth", "16"]] {
            let result = try tool.run(["convert", input, output] + options)
            #expect(result.status == 0, "\(options): \(result.errors)")
            let image = try Image(contentsOfFile: output, options: DecodeOptions(keeps16Bit: true))
            #expect(image.pixelFormat.bitsPerSample == 16, "\(options)")
            #expect(image.pixels == original.pixels, "\(options)")
        }
        let eight = try tool.run(["convert", input, output, "--depth", "8"])
        #expect(eight.status == 0, "\(eight.errors)")
        #expect(try Image(contentsOfFile: output, options: DecodeOptions(keeps16Bit: true)).pixelFormat == .rgb8)
        let bad = try tool.run(["convert", input, output, "--depth", "12"])
        #expect(bad.status == 2 && bad.errors.contains("8 or 16"))
    }

    @Test func stripConvertsWideGamutColoursToSRGB() throws {
        let (original, png) = try ColorCommandTests.p3Photo()
        let folder = try TemporaryDirectory()
        let input = try folder.write(png, to: "p3.png")
        let result = try tool.run(["convert", input, folder.path("out.png"), "--strip"])
        #expect(result.status == 0, "\(result.errors)")
        let stripped = try Image(contentsOfFile: folder.path("out.png"))
        #expect(stripped.metadata.iccProfile == nil)
        // Shown as sRGB (no profile), the pixels are the sRGB picture, not the P3 numbers read as sRGB.
        #expect(ColorCommandTests.meanDifference(stripped, original) < 1)
        let p3Numbers = try Image(data: png)
        #expect(ColorCommandTests.meanDifference(p3Numbers, original) > 5)

        // An sRGB-tagged image keeps its pixels bit for bit.
        var tagged = original
        tagged.metadata.iccProfile = ColorProfile.sRGB.iccData
        let srgb = try folder.write(try tagged.encoded(as: .png), to: "srgb.png")
        #expect(try tool.run(["convert", srgb, folder.path("srgb-out.png"), "--strip"]).status == 0)
        #expect(try Image(contentsOfFile: folder.path("srgb-out.png")).pixels == original.pixels)
    }
}
