import Testing

@testable import PixpipeImage

@Suite("Thumbnail geometry")
struct ThumbnailGeometryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: (Int, Int)
        let options: ThumbnailOptions
        let resized: (Int, Int)
        let output: (Int, Int)
        var testDescription: String { "\(source) \(options.size) \(options.mode) -> \(output)" }
    }

    static let cases: [Case] = [
        Case(source: (4000, 3000), options: .init(size: .box(256)), resized: (256, 192), output: (256, 192)),
        Case(source: (3000, 4000), options: .init(size: .box(256)), resized: (192, 256), output: (192, 256)),
        Case(
            source: (4000, 3000), options: .init(size: .box(256), mode: .fill), resized: (341, 256),
            output: (256, 256)),
        Case(
            source: (1000, 3000), options: .init(size: .box(width: 200, height: 100), mode: .fill),
            resized: (200, 600), output: (200, 100)),
        Case(source: (4000, 3000), options: .init(size: .width(500)), resized: (500, 375), output: (500, 375)),
        Case(source: (4000, 3000), options: .init(size: .height(300)), resized: (400, 300), output: (400, 300)),
        // Never upscaled unless asked; fill then cuts the box down to the picture.
        Case(source: (100, 50), options: .init(size: .box(256)), resized: (100, 50), output: (100, 50)),
        Case(source: (100, 50), options: .init(size: .box(80), mode: .fill), resized: (100, 50), output: (80, 50)),
        Case(source: (100, 50), options: .init(size: .width(400)), resized: (100, 50), output: (100, 50)),
        Case(
            source: (100, 50), options: .init(size: .box(256), allowsUpscaling: true), resized: (256, 128),
            output: (256, 128)),
        // An extreme aspect ratio keeps at least one pixel.
        Case(source: (10000, 1), options: .init(size: .box(100)), resized: (100, 1), output: (100, 1)),
    ]

    @Test(arguments: cases)
    func sizes(_ example: Case) throws {
        let plan = try ThumbnailGeometry(
            sourceWidth: example.source.0, sourceHeight: example.source.1, options: example.options)
        #expect(plan.resizedWidth == example.resized.0 && plan.resizedHeight == example.resized.1)
        #expect(plan.outputWidth == example.output.0 && plan.outputHeight == example.output.1)
    }

    @Test func fillCropsAroundTheCentre() throws {
        let plan = try ThumbnailGeometry(
            sourceWidth: 4000, sourceHeight: 3000, options: .init(size: .box(256), mode: .fill))
        #expect(plan.crop == PixelRect(x: 42, y: 0, width: 256, height: 256))
    }

    @Test(arguments: [ThumbnailOptions.Size.box(0), .box(width: 10, height: -1), .width(0), .height(-5)])
    func invalidSizesAreRefused(_ size: ThumbnailOptions.Size) {
        #expect(throws: ImageProcessingError.invalidThumbnailSize(size)) {
            try ThumbnailGeometry(sourceWidth: 10, sourceHeight: 10, options: .init(size: size))
        }
    }

    @Test func theBoxIsReadInUprightPixels() throws {
        var photo = Image(width: 400, height: 300, pixelFormat: .rgb8)
        photo.metadata.orientation = .right
        let thumbnail = try Thumbnailer(.init(size: .box(256))).thumbnail(of: photo)
        #expect(thumbnail.width == 192 && thumbnail.height == 256)
        #expect(thumbnail.metadata.orientation == .up)
    }

    @Test func withoutOrientationTheStoredSizeCounts() throws {
        var photo = Image(width: 400, height: 300, pixelFormat: .rgb8)
        photo.metadata.orientation = .right
        let thumbnail = try Thumbnailer(.init(size: .box(256), appliesOrientation: false)).thumbnail(of: photo)
        #expect(thumbnail.width == 256 && thumbnail.height == 192)
        #expect(thumbnail.metadata.orientation == .right)
    }
}
