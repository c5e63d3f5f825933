import Foundation
import PixpipeImage
import Testing

/// The one-line file API: `Image(contentsOf:)`, `write(to:)`, `shownSize` and `resized(toFit:)`, on real
/// files in a fresh folder.
@Suite("Image: one-line reading, writing, sizes and resizing")
struct ImageFileConvenienceTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-image-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// An RGB image whose pixels differ, `width` x `height`.
    static func image(width: Int = 40, height: Int = 30, orientation: Orientation = .up) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index &* 7) }
        var metadata = ImageMetadata()
        metadata.orientation = orientation
        return Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels, metadata: metadata)
    }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("write(to:) picks the format from the extension; Image(contentsOf:) reads it back")
    func writeAndReadByExtension() throws {
        let image = Self.image()
        let png = folder.appendingPathComponent("copy.png")
        let jpeg = folder.appendingPathComponent("copy.jpg")
        try image.write(to: png)
        try image.write(to: jpeg, quality: 90)
        let readPNG = try Image(contentsOf: png)
        #expect(readPNG.metadata.sourceFormat == .png && readPNG.pixels == image.pixels)
        let readJPEG = try Image(contentsOf: jpeg)
        #expect(readJPEG.metadata.sourceFormat == .jpeg && readJPEG.width == 40 && readJPEG.height == 30)
        #expect(try Image(contentsOfFile: png.path) == readPNG)
        #expect(try names() == ["copy.jpg", "copy.png"])
    }

    @Test("write(to:as:) uses the encoding given, whatever the name says")
    func writeWithEncoding() throws {
        let url = folder.appendingPathComponent("named.jpg")
        try Self.image().write(to: url, as: .png)
        #expect(try Image(contentsOf: url).metadata.sourceFormat == .png)
    }

    @Test("Writing over a file replaces it whole and leaves no temporary file")
    func replacesAtomically() throws {
        let url = folder.appendingPathComponent("out.png")
        try Data("old contents".utf8).write(to: url)
        try Self.image(width: 8, height: 6).write(to: url)
        #expect(try Image(contentsOf: url).width == 8)
        #expect(try names() == ["out.png"])
    }

    @Test("An extension that names no format is refused before anything is written")
    func unknownExtension() throws {
        let url = folder.appendingPathComponent("out.xyz")
        let error = #expect(throws: ImageEncodingError.self) { try Self.image().write(to: url) }
        #expect(error == .unknownFileExtension(path: url.path))
        #expect(error?.shortName == "unknown-output-extension")
        #expect(error?.description.contains("png") == true)
        #expect(try names().isEmpty)
    }

    @Test("A folder that does not exist and a web URL are refused as unwritable")
    func unwritable() throws {
        let missing = folder.appendingPathComponent("no-such-folder/out.png")
        let error = #expect(throws: ImageEncodingError.self) { try Self.image().write(to: missing) }
        guard case .unwritable(let path, _) = error else {
            Issue.record("expected unwritable, got \(String(describing: error))")
            return
        }
        #expect(path == missing.path && error?.shortName == "unwritable-file")
        let web = try #require(URL(string: "https://example.com/out.png"))
        let webError = #expect(throws: ImageEncodingError.self) { try Self.image().write(to: web) }
        #expect(webError?.shortName == "unwritable-file")
        #expect(try names().isEmpty)
    }

    @Test("Image(contentsOf:) refuses a URL that is not a file URL, naming it")
    func contentsOfWebURL() throws {
        let url = try #require(URL(string: "https://example.com/cat.jpg"))
        let error = #expect(throws: ImageDecodingError.self) { try Image(contentsOf: url) }
        guard case .unreadable(let path, let reason) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == url.absoluteString && reason.contains("not a file URL"))
    }

    @Test("Image(contentsOf:) applies the decode options' limits")
    func contentsOfWithLimits() throws {
        let url = folder.appendingPathComponent("big.png")
        try Self.image().write(to: url)
        let error = #expect(throws: ImageDecodingError.self) {
            try Image(contentsOf: url, options: DecodeOptions(pixelLimit: 100))
        }
        #expect(error?.shortName == "too-large-image")
    }

    @Test("shownSize is the size after the EXIF orientation; width and height stay the stored pixels")
    func shownSizeOfARotatedJPEG() throws {
        let url = folder.appendingPathComponent("portrait.jpg")
        try Self.image(width: 60, height: 40, orientation: .right).write(to: url)
        let photo = try Image(contentsOf: url)
        #expect(photo.metadata.orientation == .right)
        #expect(photo.width == 60 && photo.height == 40)
        #expect(photo.shownSize == ImageSize(width: 40, height: 60))
        #expect(photo.shownSize.description == "40x60")
        let upright = photo.applyingOrientation()
        #expect(ImageSize(width: upright.width, height: upright.height) == photo.shownSize)
        #expect(Self.image().shownSize == ImageSize(width: 40, height: 30))
    }

    @Test("resized(toFit:) fits the picture as shown inside the box, keeping the aspect ratio")
    func resizedToFit() throws {
        let landscape = Self.image(width: 400, height: 300)
        let fitted = try landscape.resized(toFit: ImageSize(width: 200, height: 100))
        #expect(fitted.width == 133 && fitted.height == 100)
        #expect(fitted == (try landscape.resized(width: 133, height: 100)))

        // Stored 400x300 on its side: shown 300x400, fitted upright to 75x100, stored 100x75.
        let rotated = Self.image(width: 400, height: 300, orientation: .right)
        let turned = try rotated.resized(toFit: ImageSize(width: 200, height: 100))
        #expect(turned.shownSize == ImageSize(width: 75, height: 100))
        #expect(turned.width == 100 && turned.height == 75 && turned.metadata.orientation == .right)
    }

    @Test("resized(toFit:) never enlarges unless asked, and refuses an empty box")
    func resizedToFitLimits() throws {
        let small = Self.image(width: 40, height: 30)
        #expect(try small.resized(toFit: ImageSize(width: 100, height: 100)) == small)
        let enlarged = try small.resized(toFit: ImageSize(width: 100, height: 100), allowsUpscaling: true)
        #expect(enlarged.width == 100 && enlarged.height == 75)
        let error = #expect(throws: ImageProcessingError.self) {
            try small.resized(toFit: ImageSize(width: 0, height: 10))
        }
        #expect(error == .invalidSize(width: 0, height: 10))
    }
}
