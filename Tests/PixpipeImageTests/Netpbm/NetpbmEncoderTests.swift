import Foundation
import PixpipeImage
import Testing

@Suite("Netpbm encoder")
struct NetpbmEncoderTests {
    /// Splits an encoded file into its header text and the sample bytes after it.
    private func split(_ data: Data, headerLines: Int) -> (header: String, samples: [UInt8]) {
        var newlines = 0
        var end = data.startIndex
        while newlines < headerLines, end < data.endIndex {
            if data[end] == 0x0A { newlines += 1 }
            end += 1
        }
        return (String(decoding: data[..<end], as: UTF8.self), Array(data[end...]))
    }

    @Test("8-bit RGB is a P6 PPM with its samples as they are")
    func ppm8() {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 1, 2, 3]
        let image = Image(width: 2, height: 2, pixelFormat: .rgb8, pixels: pixels)
        let (header, samples) = split(NetpbmEncoder.encode(image, as: .pnm), headerLines: 3)
        #expect(header == "P6\n2 2\n255\n")
        #expect(samples == pixels)
    }

    @Test("8-bit gray is a P5 PGM")
    func pgm8() {
        let image = Image(width: 3, height: 1, pixelFormat: .gray8, pixels: [0, 128, 255])
        let (header, samples) = split(NetpbmEncoder.encode(image, as: .pnm), headerLines: 3)
        #expect(header == "P5\n3 1\n255\n")
        #expect(samples == [0, 128, 255])
    }

    @Test("PPM composites alpha over white")
    func ppmDropsAlpha() {
        // Opaque red, then fully transparent black, which must come out white.
        let image = Image(width: 2, height: 1, pixelFormat: .rgba8, pixels: [255, 0, 0, 255, 0, 0, 0, 0])
        let (header, samples) = split(NetpbmEncoder.encode(image, as: .pnm), headerLines: 3)
        #expect(header == "P6\n2 1\n255\n")
        #expect(samples == [255, 0, 0, 255, 255, 255])
        let gray = Image(width: 1, height: 1, pixelFormat: .grayAlpha8, pixels: [0, 0])
        #expect(split(NetpbmEncoder.encode(gray, as: .pnm), headerLines: 3) == ("P5\n1 1\n255\n", [255]))
    }

    @Test(
        "PAM names its tuple type and keeps every channel",
        arguments: [
            (PixelLayout.gray, "GRAYSCALE"), (.grayAlpha, "GRAYSCALE_ALPHA"), (.rgb, "RGB"), (.rgba, "RGB_ALPHA"),
        ])
    func pam(layout: PixelLayout, tupleType: String) {
        let pixels = (0..<(2 * layout.channels)).map { UInt8($0 * 10) }
        let image = Image(width: 2, height: 1, pixelFormat: PixelFormat(layout: layout), pixels: pixels)
        let (header, samples) = split(NetpbmEncoder.encode(image, as: .pam), headerLines: 7)
        let expected = "P7\nWIDTH 2\nHEIGHT 1\nDEPTH \(layout.channels)\nMAXVAL 255\nTUPLTYPE \(tupleType)\nENDHDR\n"
        #expect(header == expected)
        #expect(samples == pixels)
    }

    @Test("16-bit samples are big-endian with MAXVAL 65535")
    func sixteenBit() {
        var image = Image(width: 1, height: 1, pixelFormat: PixelFormat(layout: .rgba, bitsPerSample: 16))
        for (channel, value) in [0x1234, 0xABCD, 0x0001, 0xFFFF].enumerated() {
            image[x: 0, y: 0, channel: channel] = value
        }
        let (pamHeader, pamSamples) = split(NetpbmEncoder.encode(image, as: .pam), headerLines: 7)
        #expect(pamHeader.contains("MAXVAL 65535\n"))
        #expect(pamSamples == [0x12, 0x34, 0xAB, 0xCD, 0x00, 0x01, 0xFF, 0xFF])
        let (ppmHeader, ppmSamples) = split(NetpbmEncoder.encode(image, as: .pnm), headerLines: 3)
        #expect(ppmHeader == "P6\n1 1\n65535\n")
        #expect(ppmSamples == [0x12, 0x34, 0xAB, 0xCD, 0x00, 0x01])
    }
}
