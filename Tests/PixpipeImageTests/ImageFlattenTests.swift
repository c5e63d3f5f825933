import Testing

@testable import PixpipeImage

/// `Image.flattened(over:)`: "over" compositing, the layout it gives, and 16-bit samples.
@Suite("Flattening alpha onto a background")
struct ImageFlattenTests {
    @Test func opaqueBackgroundDropsAlpha() {
        var image = Image(width: 2, height: 1, pixelFormat: .rgba8)
        // A transparent pixel and a half-transparent white one.
        for (channel, value) in [255, 255, 255, 128].enumerated() { image[x: 1, y: 0, channel: channel] = value }
        let flat = image.flattened(over: BackgroundColor(red: 0, green: 0, blue: 255))
        #expect(flat.pixelFormat == .rgb8)
        #expect([0, 1, 2].map { flat[x: 0, y: 0, channel: $0] } == [0, 0, 255])
        #expect([0, 1, 2].map { flat[x: 1, y: 0, channel: $0] } == [128, 128, 255])
    }

    @Test func grayStaysGrayOverGrayAnd16BitsStay() {
        var image = Image(width: 1, height: 1, pixelFormat: PixelFormat(layout: .grayAlpha, bitsPerSample: 16))
        image[x: 0, y: 0, channel: 0] = 65535
        image[x: 0, y: 0, channel: 1] = 0
        let flat = image.flattened(over: BackgroundColor(red: 0, green: 0, blue: 0))
        #expect(flat.pixelFormat == PixelFormat(layout: .gray, bitsPerSample: 16))
        #expect(flat[x: 0, y: 0, channel: 0] == 0)
        let colored = image.flattened(over: BackgroundColor(red: 255, green: 0, blue: 0))
        #expect(colored.pixelFormat == PixelFormat(layout: .rgb, bitsPerSample: 16))
        #expect([0, 1, 2].map { colored[x: 0, y: 0, channel: $0] } == [65535, 0, 0])
    }

    @Test func translucentBackgroundKeepsAlpha() {
        let image = Image(width: 1, height: 1, pixelFormat: .rgba8)  // fully transparent black
        let flat = image.flattened(over: BackgroundColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(flat.pixelFormat == .rgba8)
        #expect([0, 1, 2, 3].map { flat[x: 0, y: 0, channel: $0] } == [255, 0, 0, 128])
        let opaque = Image(width: 1, height: 1, pixelFormat: .rgb8)
        #expect(opaque.flattened(over: BackgroundColor(red: 1, green: 2, blue: 3)) == opaque)
    }
}
