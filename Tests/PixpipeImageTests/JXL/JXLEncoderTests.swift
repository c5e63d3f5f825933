import Foundation
import Testing

@testable import PixpipeImage

@Suite("JPEG XL encoding: quality, lossless, depths, alpha, ICC, orientation")
struct JXLEncoderTests {
    @Test("quality maps to cjxl's distance; 100 and `lossless` are lossless")
    func distance() {
        #expect(JXLEncodeOptions(quality: 90).distance == 1.0)
        #expect(abs(JXLEncodeOptions(quality: 30).distance - 6.4) < 0.001)
        #expect(abs(JXLEncodeOptions(quality: 10).distance - (6.4 + 39.0625 / 6.25)) < 0.001)
        #expect(JXLEncodeOptions(quality: 100).distance == 0 && JXLEncodeOptions(lossless: true).isLossless)
    }

    @Test("lossless keeps every sample: 8-bit RGBA, 16-bit RGB, gray")
    func lossless() throws {
        let rgb = JXLTestFiles.gradient()
        var rgba = rgb.converted(to: .rgba8)
        rgba[x: 3, y: 4, channel: 3] = 17
        let deep = rgb.converted(to: PixelFormat(layout: .rgb, bitsPerSample: 16))
        let gray = rgb.converted(to: .gray8)
        for image in [rgba, deep, gray] {
            let data = try image.encoded(as: .jxl(JXLEncodeOptions(lossless: true, effort: 3)))
            let decoded = try Image(data: data, options: DecodeOptions(keeps16Bit: true))
            #expect(decoded.pixelFormat == image.pixelFormat)
            #expect(decoded.pixels == image.pixels, "\(image.pixelFormat)")
        }
    }

    @Test("lossy: smaller at lower quality, close to the source")
    func lossy() throws {
        let image = JXLTestFiles.gradient(width: 128, height: 96)
        let high = try image.encoded(as: .jxl(quality: 95))
        let low = try image.encoded(as: .jxl(quality: 40))
        #expect(low.count < high.count)
        let decoded = try Image(data: high)
        let error = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(error < 40, "largest error \(error)")
    }

    @Test("the ICC profile and the orientation are written")
    func metadata() throws {
        var image = JXLTestFiles.gradient()
        image.metadata.orientation = .right
        image.metadata.iccProfile = ColorProfile.displayP3.iccData
        let decoded = try Image(data: try image.encoded(as: .jxl(JXLEncodeOptions(lossless: true))))
        #expect(decoded.metadata.orientation == .right)
        #expect(decoded.metadata.iccProfile == image.metadata.iccProfile)
    }

    @Test("EXIF and XMP are written as boxes that this decoder and djxl's container reader find")
    func exifAndXMP() throws {
        var image = JXLTestFiles.gradient()
        // A big-endian TIFF header with no entries: enough to be carried, not interpreted.
        let exif: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00]
        let xmp = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>"#.utf8)
        image.metadata.exif = exif
        image.metadata.xmp = xmp
        let data = try image.encoded(as: .jxl(JXLEncodeOptions(lossless: true, effort: 3)))
        let decoded = try Image(data: data)
        #expect(decoded.metadata.exif == exif)
        #expect(decoded.metadata.xmp == xmp)
        #expect(decoded.pixels == image.pixels)
        // The file is an ISO BMFF container with the two boxes at its top level.
        let bytes = [UInt8](data)
        #expect(Array(bytes[4..<8]) == Array("JXL ".utf8))
        var types: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        #expect(types.contains("Exif") && types.contains("xml "))

        let plain = try JXLTestFiles.gradient().encoded(as: .jxl(JXLEncodeOptions(lossless: true, effort: 3)))
        #expect(try Image(data: plain).metadata.exif == nil)
    }

    @Test("out-of-range options are typed errors")
    func invalid() {
        #expect(throws: ImageEncodingError.self) { try JXLTestFiles.gradient().encoded(as: .jxl(quality: 0)) }
        #expect(throws: ImageEncodingError.self) {
            try JXLTestFiles.gradient().encoded(as: .jxl(JXLEncodeOptions(effort: 12)))
        }
    }
}
