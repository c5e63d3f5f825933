import Foundation
import Testing

@testable import PixpipeImage

/// HEIC thumbnails made from the file's own thumbnail image when it is large enough, as phones store one.
@Suite("HEIF thumbnails from the embedded thumbnail image")
struct HEIFThumbnailTests {
    static let heifEnc = "/usr/bin/heif-enc"

    /// A 640x480 picture whose top-left quadrant is red and the rest blue, so a turn or a mirror shows.
    static func quadrants(width: Int = 640, height: Int = 480) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        for y in 0..<height {
            for x in 0..<width {
                let red = x < width / 2 && y < height / 2
                image[x: x, y: y, channel: 0] = red ? 220 : 20
                image[x: x, y: y, channel: 1] = 30
                image[x: x, y: y, channel: 2] = red ? 20 : 220
            }
        }
        return image
    }

    /// A picture of one colour, `rgb`.
    static func solid(width: Int, height: Int, _ rgb: (Int, Int, Int)) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        for y in 0..<height {
            for x in 0..<width {
                image[x: x, y: y, channel: 0] = rgb.0
                image[x: x, y: y, channel: 1] = rgb.1
                image[x: x, y: y, channel: 2] = rgb.2
            }
        }
        return image
    }

    /// The thumbnail of `data` made from its primary image decoded in full.
    static func fromPrimary(_ data: Data, _ options: ThumbnailOptions) throws -> Image {
        try Thumbnailer(options).thumbnail(of: try Image(data: data))
    }

    /// The mean of channel `channel` over `image`.
    static func mean(_ image: Image, channel: Int) -> Double {
        var sum = 0
        for y in 0..<image.height {
            for x in 0..<image.width { sum += image[x: x, y: y, channel: channel] }
        }
        return Double(sum) / Double(image.width * image.height)
    }

    /// Runs heif-enc with `arguments`, expecting success.
    static func runHeifEnc(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: heifEnc)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "heif-enc \(arguments)")
    }

    @Test(
        "a thumbnail made by heif-enc -t is used from its size down, and the primary above it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: heifEnc)))
    func heifEncThreshold() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-thumb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png")
        let heic = folder.appendingPathComponent("with-thumbnail.heic")
        try SyntheticImages.smooth(width: 1200, height: 900, format: .rgb8).encoded(as: .png).write(to: png)
        try Self.runHeifEnc(["-q", "60", "-t", "320", "-o", heic.path, png.path])
        let data = try Data(contentsOf: heic)
        let info = try Image.info(data: data)
        #expect(info.auxiliaryImages == [AuxiliaryImage(kind: .thumbnail, type: "thmb", width: 320, height: 240)])

        // 320 wide is the thumbnail's own width: at least as large, so it is used; 321 is not.
        for (side, usesThumbnail) in [(256, true), (320, true), (321, false), (600, false)] {
            let options = ThumbnailOptions(size: .box(side))
            let thumbnail = try Thumbnailer(options).thumbnail(data: data)
            let expected = try Self.fromPrimary(data, options)
            #expect(thumbnail.width == expected.width && thumbnail.height == expected.height, "\(side)")
            if usesThumbnail {
                #expect(thumbnail.pixels != expected.pixels, "\(side): the embedded thumbnail is used")
                #expect(JPEGTestImages.psnr(thumbnail.samples8, expected.samples8) > 30, "\(side)")
            } else {
                #expect(thumbnail.pixels == expected.pixels, "\(side): the primary is decoded")
            }
        }
        // The file path reads the same way.
        let fromFile = try Thumbnailer(.init(size: .box(256))).thumbnail(contentsOfFile: heic.path)
        #expect(fromFile.pixels == (try Thumbnailer(.init(size: .box(256))).thumbnail(data: data)).pixels)
    }

    @Test("the embedded thumbnail's pixels are the ones shown when it is large enough, never when too small")
    func embeddedPixelsAreUsed() throws {
        // The thumbnail item is a different picture (green), so which one was decoded shows in the output.
        let primary = SyntheticImages.smooth(width: 640, height: 480, format: .rgb8)
        let data = try HEIFEncoder.encode(
            primary, options: HEIFEncodeOptions(quality: 80),
            thumbnail: .init(image: Self.solid(width: 640, height: 480, (20, 200, 20)), side: 320))
        let small = try Thumbnailer(.init(size: .box(200))).thumbnail(data: data)
        #expect(small.width == 200 && small.height == 150)
        #expect(Self.mean(small, channel: 1) > 180 && Self.mean(small, channel: 0) < 40)
        let large = try Thumbnailer(.init(size: .box(400))).thumbnail(data: data)
        #expect(large.pixels == (try Self.fromPrimary(data, .init(size: .box(400)))).pixels)
        // .fill covers the box: 400x300 before the cut, more than the thumbnail's 320x240.
        let fill = try Thumbnailer(.init(size: .box(300), mode: .fill)).thumbnail(data: data)
        #expect(fill.width == 300 && fill.height == 300)
        #expect(fill.pixels == (try Self.fromPrimary(data, .init(size: .box(300), mode: .fill))).pixels)
    }

    @Test("a rotated primary's thumbnail (irot on both items) comes out upright, as from the primary")
    func rotatedPrimaryAndThumbnail() throws {
        var primary = Self.quadrants()
        primary.metadata.orientation = .right
        let data = try HEIFEncoder.encode(
            primary, options: HEIFEncodeOptions(quality: 90),
            thumbnail: .init(image: Self.quadrants(), side: 320, orientation: .right))
        let info = try Image.info(data: data)
        // Shown sizes: the primary turned to 480x640, and its thumbnail to 240x320.
        #expect(info.width == 480 && info.height == 640)
        #expect(info.auxiliaryImages.first.map { ($0.width, $0.height) } ?? (0, 0) == (240, 320))
        let options = ThumbnailOptions(size: .box(256))
        let thumbnail = try Thumbnailer(options).thumbnail(data: data)
        let expected = try Self.fromPrimary(data, options)
        #expect(thumbnail.width == 192 && thumbnail.height == 256)
        #expect(thumbnail.pixels != expected.pixels, "the embedded thumbnail is used")
        #expect(JPEGTestImages.psnr(thumbnail.samples8, expected.samples8) > 25)
        // Orientation 6 turns the stored top-left (red) quadrant to the shown top right.
        #expect(thumbnail[x: 150, y: 40, channel: 0] > 150 && thumbnail[x: 40, y: 40, channel: 0] < 100)
    }

    @Test("a thumbnail written without the primary's rotation is not used: it would come out turned")
    func thumbnailMissingTheRotationIsNotUsed() throws {
        var primary = Self.quadrants()
        primary.metadata.orientation = .right
        let data = try HEIFEncoder.encode(
            primary, options: HEIFEncodeOptions(quality: 90),
            thumbnail: .init(image: Self.quadrants(), side: 320, orientation: nil))
        let options = ThumbnailOptions(size: .box(256))
        let thumbnail = try Thumbnailer(options).thumbnail(data: data)
        #expect(thumbnail.width == 192 && thumbnail.height == 256)
        #expect(thumbnail.pixels == (try Self.fromPrimary(data, options)).pixels)
    }

    @Test(
        "grid tiles decoded on the calling thread give the pixels of libheif's own tile threads",
        .enabled(if: Corpora.isAvailable), arguments: ["gen-grid-3x2-1500x1000.heic", "nuke-img_751.heic"])
    func gridOnOneThread(_ name: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", name)))
        let single = try data.withUnsafeBytes { bytes in
            let context = try HEIFContext(bytes: bytes, pixelLimit: nil, decodingThreads: 1)
            return try HEIFCodec.decode(context.primary, depth: context.depth, options: DecodeOptions())
        }
        let threaded = try Image(data: data)
        #expect(single.width == threaded.width && single.height == threaded.height)
        #expect(single.pixels == threaded.pixels)
        let thumbnail = try Thumbnailer(.init(size: .box(300))).thumbnail(data: data)
        #expect(thumbnail.pixels == (try Self.fromPrimary(data, .init(size: .box(300)))).pixels)
    }

    @Test("the proportions check allows writers' rounding and refuses a turned shape")
    func sameShape() {
        #expect(HEIFContext.sameShape(320, 240, 4032, 3024))
        #expect(HEIFContext.sameShape(84, 128, 512, 768))  // heif-enc rounds 85.3 to an even 84
        #expect(!HEIFContext.sameShape(240, 320, 4032, 3024))
        #expect(!HEIFContext.sameShape(320, 200, 4032, 3024))
    }
}
