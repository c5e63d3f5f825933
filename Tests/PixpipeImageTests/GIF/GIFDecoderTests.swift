import Foundation
import Testing

@testable import PixpipeImage

/// GIF decoding on files built by ``GIFWriter``: palettes, transparency, interlacing, disposal, clipping,
/// loop counts and delays, and that the first frame is what ``Image/init(data:options:)`` gives.
@Suite("GIF: decoding")
struct GIFDecoderTests {
    static let red: GIFWriter.Color = (255, 0, 0)
    static let green: GIFWriter.Color = (0, 255, 0)
    static let blue: GIFWriter.Color = (0, 0, 255)
    static let white: GIFWriter.Color = (255, 255, 255)

    /// The RGBA pixel at (`x`, `y`).
    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        (0..<4).map { image[x: x, y: y, channel: $0] }
    }

    static func opaque(_ color: GIFWriter.Color) -> [Int] { [Int(color.red), Int(color.green), Int(color.blue), 255] }

    @Test("GIF87a and GIF89a, global and local colour tables", arguments: ["GIF87a", "GIF89a"])
    func palettes(version: String) throws {
        var writer = GIFWriter(width: 3, height: 2, palette: [Self.red, Self.green, Self.blue], version: version)
        writer.frame(width: 3, height: 2, indices: [0, 1, 2, 2, 1, 0])
        writer.trailer()
        let image = try Image(data: Data(writer.bytes))
        #expect(ImageFormat.sniff(writer.bytes) == .gif)
        #expect(image.pixelFormat == .rgba8 && image.metadata.sourceFormat == .gif)
        #expect(Self.pixel(image, 0, 0) == Self.opaque(Self.red))
        #expect(Self.pixel(image, 2, 0) == Self.opaque(Self.blue))
        #expect(Self.pixel(image, 1, 1) == Self.opaque(Self.green))
        #expect(image.metadata.warnings.isEmpty)

        var local = GIFWriter(width: 2, height: 1, palette: [Self.red, Self.green])
        local.frame(width: 2, height: 1, indices: [0, 1], palette: [Self.blue, Self.white])
        local.trailer()
        let overridden = try Image(data: Data(local.bytes))
        #expect(Self.pixel(overridden, 0, 0) == Self.opaque(Self.blue))
        #expect(Self.pixel(overridden, 1, 0) == Self.opaque(Self.white))
    }

    @Test("Interlaced frames give the pixels of the same frame stored top to bottom", arguments: 1...17)
    func interlacing(height: Int) throws {
        let indices = (0..<(3 * height)).map { UInt8($0 % 4) }
        var images: [Image] = []
        for interlaced in [false, true] {
            var writer = GIFWriter(width: 3, height: height, palette: [Self.red, Self.green, Self.blue, Self.white])
            writer.frame(width: 3, height: height, indices: indices, interlaced: interlaced)
            writer.trailer()
            images.append(try Image(data: Data(writer.bytes)))
        }
        #expect(images[0].pixels == images[1].pixels)
        #expect(images[1].metadata.isInterlaced && !images[0].metadata.isInterlaced)
    }

    /// A 4x1 canvas: frame 0 fills it red, frame 1 draws green over columns 1-2 with `disposal`, frame 2 draws
    /// a blue pixel at column 3, transparent elsewhere.
    static func disposalFile(_ disposal: Int) -> [UInt8] {
        var writer = GIFWriter(width: 4, height: 1, palette: [Self.red, Self.green, Self.blue, Self.white])
        writer.control(disposal: 1)
        writer.frame(width: 4, height: 1, indices: [0, 0, 0, 0])
        writer.control(disposal: disposal)
        writer.frame(left: 1, width: 2, height: 1, indices: [1, 1])
        writer.control(transparentIndex: 3)
        writer.frame(width: 4, height: 1, indices: [3, 3, 3, 2])
        writer.trailer()
        return writer.bytes
    }

    @Test("Disposal: unspecified and none keep, background clears to transparent, previous restores")
    func disposal() throws {
        let red = Self.opaque(Self.red)
        let green = Self.opaque(Self.green)
        let blue = Self.opaque(Self.blue)
        for (disposal, middle) in [(0, green), (1, green), (2, nil), (3, red), (5, green)] {
            let frames = try AnimationReader(data: Data(Self.disposalFile(disposal))).allFrames()
            try #require(frames.count == 3)
            #expect((0..<4).map { Self.pixel(frames[1].image, $0, 0) } == [red, green, green, red])
            let last = (0..<4).map { Self.pixel(frames[2].image, $0, 0) }
            #expect(last[0] == red && last[3] == blue, "disposal \(disposal)")
            if let middle {
                #expect(last[1] == middle && last[2] == middle, "disposal \(disposal)")
            } else {
                #expect(last[1][3] == 0 && last[2][3] == 0, "disposal 2 leaves the rectangle transparent")
            }
        }
    }

    @Test("Restore-previous on the first frame restores the empty canvas")
    func restorePreviousFirst() throws {
        var writer = GIFWriter(width: 2, height: 1, palette: [Self.red, Self.green])
        writer.control(disposal: 3)
        writer.frame(width: 2, height: 1, indices: [0, 0])
        writer.frame(width: 1, height: 1, indices: [1])
        writer.trailer()
        let frames = try AnimationReader(data: Data(writer.bytes)).allFrames()
        #expect(Self.pixel(frames[1].image, 0, 0) == Self.opaque(Self.green))
        #expect(Self.pixel(frames[1].image, 1, 0)[3] == 0)
    }

    @Test("Frames partly or wholly outside the canvas, or larger than it, are clipped")
    func clipping() throws {
        var writer = GIFWriter(width: 4, height: 4, palette: [Self.red, Self.green, Self.blue])
        writer.frame(width: 4, height: 4, indices: [UInt8](repeating: 0, count: 16))
        writer.frame(left: 2, top: 3, width: 5, height: 3, indices: [UInt8](repeating: 1, count: 15))
        writer.frame(left: 9, top: 0, width: 2, height: 2, indices: [2, 2, 2, 2])
        // Larger than the canvas in both directions, interlaced: only its top-left 4x4 shows.
        writer.frame(width: 300, height: 200, indices: [UInt8](repeating: 2, count: 60_000), interlaced: true)
        writer.trailer()
        let frames = try AnimationReader(data: Data(writer.bytes)).allFrames()
        try #require(frames.count == 4)
        let partly = frames[1].image
        #expect(
            Self.pixel(partly, 2, 3) == Self.opaque(Self.green) && Self.pixel(partly, 3, 3) == Self.opaque(Self.green))
        #expect(Self.pixel(partly, 1, 3) == Self.opaque(Self.red) && Self.pixel(partly, 3, 2) == Self.opaque(Self.red))
        #expect(frames[2].image.pixels == partly.pixels)
        #expect(frames[3].image.width == 4 && frames[3].image.height == 4)
        #expect((0..<16).allSatisfy { Self.pixel(frames[3].image, $0 % 4, $0 / 4) == Self.opaque(Self.blue) })
    }

    @Test("Loop count: no extension plays once, a stored 0 is forever, a stored n plays n + 1 times")
    func loopCount() throws {
        for (repeats, plays) in [(nil, 1), (0, 0), (1, 2), (3, 4)] as [(Int?, Int)] {
            var writer = GIFWriter(width: 1, height: 1, palette: [Self.red, Self.green])
            if let repeats { writer.loop(repeats: repeats) }
            writer.control(delay: 0)
            writer.frame(width: 1, height: 1, indices: [0])
            writer.control(delay: 7)
            writer.frame(width: 1, height: 1, indices: [1])
            writer.comment("comments are skipped")
            writer.trailer()
            let info = try Image.info(data: Data(writer.bytes))
            #expect(info.animation == AnimationInfo(frameCount: 2, loopCount: plays, duration: .milliseconds(70)))
            let reader = try AnimationReader(data: Data(writer.bytes))
            #expect(reader.loopCount == plays && reader.frameCount == 2)
            // Delays are the file's own, even 0 (browsers would show 100 ms).
            #expect(try reader.allFrames().map(\.duration) == [.zero, .milliseconds(70)])
        }
    }

    @Test("A still GIF has no animation info; the first frame of an animation is the image")
    func firstFrame() throws {
        var writer = GIFWriter(width: 1, height: 1, palette: [Self.red, Self.green])
        writer.frame(width: 1, height: 1, indices: [0])
        writer.trailer()
        #expect(try Image.info(data: Data(writer.bytes)).animation == nil)
        let frames = try AnimationReader(data: Data(Self.disposalFile(1))).allFrames()
        #expect(try Image(data: Data(Self.disposalFile(1))).pixels == frames[0].image.pixels)
    }

    @Test("The thumbnailer decodes the first frame and resizes it, through the codec protocol's default")
    func thumbnail() throws {
        var writer = GIFWriter(width: 40, height: 20, palette: [Self.red, Self.green, Self.blue])
        writer.frame(width: 40, height: 20, indices: (0..<800).map { UInt8($0 % 40 / 14) })
        writer.frame(width: 40, height: 20, indices: [UInt8](repeating: 1, count: 800))
        writer.trailer()
        let options = ThumbnailOptions(size: .box(10))
        let thumbnail = try Thumbnailer(options).thumbnail(data: Data(writer.bytes))
        let expected = try Thumbnailer(options).thumbnail(of: Image(data: Data(writer.bytes)))
        #expect(thumbnail.width == 10 && thumbnail.height == 5)
        #expect(thumbnail.pixels == expected.pixels)
    }

    @Test("Decode only: the format has no encoder")
    func noEncoder() {
        #expect(ImageFormat.gif.canDecode && !ImageFormat.gif.canEncode && !ImageFormat.gif.canEncodeAnimation)
        #expect(ImageFormat(name: "GIF") == .gif && ImageFormat.gif.mediaTypes == ["image/gif"])
    }

    @Test("A frame without any colour table, and an empty logical screen, are corrupt")
    func missingTables() throws {
        var writer = GIFWriter(width: 1, height: 1)
        writer.frame(width: 1, height: 1, indices: [0])
        writer.trailer()
        #expect(throws: ImageDecodingError.self) { try Image(data: Data(writer.bytes)) }
        var empty = GIFWriter(width: 0, height: 0, palette: [Self.red, Self.green])
        empty.frame(width: 1, height: 1, indices: [0])
        empty.trailer()
        let error = #expect(throws: ImageDecodingError.self) { try Image(data: Data(empty.bytes)) }
        #expect(error?.case == .corrupt)
    }
}
