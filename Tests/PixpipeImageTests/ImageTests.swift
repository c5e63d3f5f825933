import Testing

@testable import PixpipeImage

@Suite struct ImageTests {
    @Test func pixelAccessRoundTrips() {
        var image = Image(width: 3, height: 2, pixelFormat: .rgba8)
        image[x: 2, y: 1, channel: 3] = 200
        #expect(image[x: 2, y: 1, channel: 3] == 200)
        #expect(image.pixels[(1 * 3 + 2) * 4 + 3] == 200)
    }

    @Test func sixteenBitSamplesAreNative() {
        var image = Image(width: 1, height: 1, pixelFormat: PixelFormat(layout: .gray, bitsPerSample: 16))
        image[x: 0, y: 0, channel: 0] = 0x1234
        #expect(image.samples16 == [0x1234])
        #expect(image.samples8 == [0x12])
    }

    @Test func conversionFlattensAlphaOverWhite() {
        var image = Image(width: 1, height: 1, pixelFormat: .rgba8)
        image[x: 0, y: 0, channel: 0] = 255
        image[x: 0, y: 0, channel: 3] = 0
        let flat = image.converted(to: .rgb8)
        #expect(flat.pixels == [255, 255, 255])
        let gray = Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [77]).converted(to: .rgba8)
        #expect(gray.pixels == [77, 77, 77, 255])
    }

    @Test func sniffsFormats() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.sniff([UInt8]()) == nil)
    }
}
