import Foundation
import PixpipeImage
import Testing

/// A toy format a library user could add: `PXTEST`, a 16-bit little-endian width and height, then one
/// gray byte per pixel, row after row. Only the public API is used.
struct ToyCodec: ImageDecoding {
    static let magic = Array("PXTEST".utf8)
    static let headerLength = magic.count + 4

    var format: ImageFormat { ImageFormat(rawValue: "pxtest") }
    var fileExtensions: [String] { ["pxt", "pxtest"] }
    var mediaTypes: [String] { ["image/x-pxtest"] }
    var canEncode: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { prefix.starts(with: Self.magic) }

    func info(_ data: Data) throws(ImageDecodingError) -> ImageInfo {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.headerLength else { throw .truncated(format: format, reason: "short header") }
        let width = Int(bytes[6]) | Int(bytes[7]) << 8
        let height = Int(bytes[8]) | Int(bytes[9]) << 8
        guard width > 0, height > 0 else { throw .corrupt(format: format, reason: "empty image") }
        return ImageInfo(format: format, width: width, height: height, pixelFormat: .gray8, metadata: ImageMetadata())
    }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let info = try info(data)
        if let limit = options.pixelLimit, info.width * info.height > limit {
            throw .tooLarge(width: info.width, height: info.height, limit: limit)
        }
        let pixels = [UInt8](data.dropFirst(Self.headerLength))
        guard pixels.count >= info.width * info.height else {
            throw .truncated(format: format, reason: "\(pixels.count) of \(info.width * info.height) pixels")
        }
        return Image(
            width: info.width, height: info.height, pixelFormat: .gray8,
            pixels: Array(pixels.prefix(info.width * info.height)))
    }

    func encode(_ image: Image, settings: StandardEncodeSettings) throws(ImageEncodingError) -> Data {
        guard image.pixelFormat == .gray8 else { throw .unsupportedPixelFormat(image.pixelFormat, format: format) }
        let size = [
            UInt8(image.width & 0xFF), UInt8(image.width >> 8), UInt8(image.height & 0xFF), UInt8(image.height >> 8),
        ]
        return Data(Self.magic + size + image.pixels)
    }
}

/// A codec added at run time through ``ImageCodecs/register(_:)`` is used everywhere an image goes.
@Suite("Codec registry")
struct CodecRegistryTests {
    /// Registers the toy codec once for the process (a second registration is refused, which is fine).
    static let format: ImageFormat = {
        ImageCodecs.register(ToyCodec())
        return ToyCodec().format
    }()

    /// A 6x4 gradient in the toy format. Computed, not a `static let`: a global `Data` holds its storage
    /// behind an enum payload whose tag bits hide the pointer from LeakSanitizer, which then reports it.
    static var sample: Data {
        let pixels = (0..<24).map { UInt8($0 * 10) }
        return Data(ToyCodec.magic + [6, 0, 4, 0] + pixels)
    }

    @Test("a registered format is named, sniffed, decoded and read by its header")
    func decodeAndInfo() throws {
        let format = Self.format
        #expect(ImageCodecs.registeredFormats.contains(format))
        #expect(ImageFormat(name: "PXT") == format)
        #expect(ImageFormat.sniff(Self.sample) == format)
        #expect(format.canDecode && format.canEncode)
        #expect(format.fileExtension == "pxt")
        #expect(format.mediaTypes == ["image/x-pxtest"])
        #expect(ImageFormat.all.contains(format))

        let info = try Image.info(data: Self.sample)
        #expect(info.format == format && info.width == 6 && info.height == 4)
        let image = try Image(data: Self.sample)
        #expect(image.width == 6 && image.height == 4 && image.pixelFormat == .gray8)
        #expect(image.pixels.last == 230)
        #expect(throws: ImageDecodingError.tooLarge(width: 6, height: 4, limit: 10)) {
            try Image(data: Self.sample, options: DecodeOptions(pixelLimit: 10))
        }
        #expect(throws: ImageDecodingError.self) { try Image(data: Self.sample.prefix(12)) }
    }

    @Test("a registered format converts to and from the built-in ones")
    func convert() throws {
        let format = Self.format
        let encoding = try #require(ImageEncoding.standard(for: format))
        #expect(encoding.format == format)
        let png = try Image(data: Self.sample).encoded(as: .png)
        let back = try Image(data: png).encoded(as: encoding)
        #expect(back == Self.sample)
        #expect(throws: ImageEncodingError.self) {
            try Image(width: 2, height: 2, pixelFormat: .rgb8).encoded(as: encoding)
        }
    }

    @Test("a registered format is thumbnailed")
    func thumbnail() throws {
        _ = Self.format
        let thumbnail = try Thumbnailer(.init(size: .box(3))).thumbnail(data: Self.sample)
        #expect(thumbnail.width == 3 && thumbnail.height == 2)
    }

    @Test("a built-in format or extension cannot be replaced, nor a format registered twice")
    func refusals() {
        _ = Self.format
        struct Impostor: ImageDecoding {
            var format: ImageFormat
            var fileExtensions: [String]
            func matches(_ prefix: [UInt8]) -> Bool { false }
            func info(_ data: Data) throws(ImageDecodingError) -> ImageInfo { throw .unsupportedFormat() }
            func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> Image {
                throw .unsupportedFormat()
            }
        }
        #expect(!ImageCodecs.register(Impostor(format: .png, fileExtensions: ["png2"])))
        #expect(!ImageCodecs.register(Impostor(format: ImageFormat(rawValue: "other"), fileExtensions: ["jpg"])))
        #expect(!ImageCodecs.register(ToyCodec()))
        #expect(ImageFormat(name: "png2") == nil)
    }

    /// A codec that recognises nothing, named `name`.
    struct Silent: ImageDecoding {
        let name: String
        var format: ImageFormat { ImageFormat(rawValue: name) }
        var fileExtensions: [String] { [name] }
        func matches(_ prefix: [UInt8]) -> Bool { false }
        func info(_ data: Data) throws(ImageDecodingError) -> ImageInfo { throw .unsupportedFormat() }
        func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> Image {
            throw .unsupportedFormat()
        }
    }

    @Test("registering from many tasks at once while others decode: each format once, none lost")
    func concurrentRegistration() async {
        _ = Self.format
        let names = (0..<16).map { "pxconcurrent\($0)" }
        let wins = await withTaskGroup(of: Bool.self) { group in
            for name in names {
                // Four tasks race to register each format; exactly one may win.
                for _ in 0..<4 { group.addTask { ImageCodecs.register(Silent(name: name)) } }
                group.addTask { (try? Image(data: Self.sample))?.width == 6 && ImageFormat.all.count > 5 }
            }
            var registered = 0
            for await won in group where won { registered += 1 }
            return registered
        }
        // 16 registrations won, plus the 16 decodes that succeeded.
        #expect(wins == 32)
        let formats = ImageCodecs.registeredFormats.map(\.rawValue)
        for name in names { #expect(formats.filter { $0 == name }.count == 1, "\(name)") }
    }
}
