import Testing

@testable import PixpipeImage

@Suite struct CropTests {
    /// A 4x3 gray image whose pixel at (x, y) is 10 * y + x.
    static let grid = Image(
        width: 4, height: 3, pixelFormat: .gray8, pixels: (0..<3).flatMap { y in (0..<4).map { UInt8(10 * y + $0) } })

    @Test func cropsTheRectangleInside() throws {
        let crop = try Self.grid.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(crop.width == 2 && crop.height == 2)
        #expect(crop.pixels == [11, 12, 21, 22])
    }

    @Test func clampsARectangleReachingPastTheEdges() throws {
        let crop = try Self.grid.cropped(to: PixelRect(x: -5, y: 2, width: 7, height: 10))
        #expect(crop.width == 2 && crop.height == 1)
        #expect(crop.pixels == [20, 21])
        #expect(try Self.grid.cropped(to: PixelRect(x: -1, y: -1, width: 100, height: 100)) == Self.grid)
    }

    @Test(arguments: [
        PixelRect(x: 4, y: 0, width: 2, height: 2),
        PixelRect(x: 0, y: -3, width: 4, height: 3),
        PixelRect(x: 1, y: 1, width: 0, height: 1),
        PixelRect(x: 1, y: 1, width: 2, height: -1),
        PixelRect(x: Int.max, y: Int.max, width: Int.max, height: Int.max),
    ])
    func throwsWhenNothingOverlaps(rect: PixelRect) {
        #expect(throws: ImageProcessingError.emptyCrop(rect, imageWidth: 4, imageHeight: 3)) {
            try Self.grid.cropped(to: rect)
        }
    }

    @Test func extremeRectanglesDoNotOverflow() throws {
        let everything = PixelRect(x: -10, y: 1, width: Int.max, height: Int.max)
        #expect(try Self.grid.cropped(to: everything).pixels == [10, 11, 12, 13, 20, 21, 22, 23])
        let endsLeftOfTheImage = PixelRect(x: Int.min, y: 0, width: Int.max, height: 1)
        #expect(throws: ImageProcessingError.emptyCrop(endsLeftOfTheImage, imageWidth: 4, imageHeight: 3)) {
            try Self.grid.cropped(to: endsLeftOfTheImage)
        }
    }

    @Test func cropsSixteenBitPixelsAndKeepsMetadata() throws {
        var image = Image(width: 3, height: 2, pixelFormat: PixelFormat(layout: .rgba, bitsPerSample: 16))
        image[x: 2, y: 1, channel: 3] = 0xBEEF
        image[x: 1, y: 1, channel: 0] = 0x1234
        image.metadata.iccProfile = [1, 2, 3]
        let crop = try image.cropped(to: PixelRect(x: 1, y: 1, width: 5, height: 5))
        #expect(crop.width == 2 && crop.height == 1)
        #expect(crop[x: 0, y: 0, channel: 0] == 0x1234)
        #expect(crop[x: 1, y: 0, channel: 3] == 0xBEEF)
        #expect(crop.metadata.iccProfile == [1, 2, 3])
    }
}
