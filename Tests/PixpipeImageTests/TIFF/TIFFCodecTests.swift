import Foundation
import Testing

@testable import PixpipeImage

/// The TIFF encoder and decoder together: exact round trips, metadata, pages, limits, damage.
@Suite("TIFF codec: round trips, metadata, pages, limits, damage")
struct TIFFCodecTests {
    static let formats: [PixelFormat] = [
        .gray8, .grayAlpha8, .rgb8, .rgba8, PixelFormat(layout: .gray, bitsPerSample: 16),
        PixelFormat(layout: .rgba, bitsPerSample: 16),
    ]

    @Test("every pixel format round-trips exactly, with each compression", arguments: formats)
    func roundTrip(_ format: PixelFormat) throws {
        let image = TestImages.noise(width: 37, height: 23, format: format)
        for compression in TIFFEncodeOptions.Compression.allCases {
            let data = try image.encoded(as: .tiff(TIFFEncodeOptions(compression: compression)))
            #expect(ImageFormat.sniff(data) == .tiff)
            let decoded = try Image(data: data, options: DecodeOptions(keeps16Bit: true))
            #expect(decoded.pixelFormat == format)
            #expect(decoded.pixels == image.pixels, "\(format) \(compression)")
        }
        // Without keeps16Bit, 16-bit samples are reduced to their high byte, as for PNG.
        let reduced = try Image(data: try image.encoded(as: .tiff))
        #expect(reduced.pixelFormat.bitsPerSample == 8)
        #expect(reduced.pixels == image.samples8)
    }

    @Test("ICC profile, XMP, resolution and orientation are written and read back")
    func metadataRoundTrip() throws {
        var image = TestImages.noise(width: 12, height: 8, format: .rgb8)
        let xmp = Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8)
        image.metadata.iccProfile = TestImages.iccProfile()
        image.metadata.xmp = xmp
        image.metadata.dotsPerInch = .init(x: 300, y: 150)
        image.metadata.orientation = .right
        let data = try image.encoded(as: .tiff)
        let decoded = try Image(data: data)
        #expect(decoded.metadata.iccProfile == TestImages.iccProfile())
        #expect(decoded.metadata.xmp == xmp)
        #expect(decoded.metadata.dotsPerInch == .init(x: 300, y: 150))
        #expect(decoded.metadata.orientation == .right)
        #expect(decoded.metadata.exif.map { EXIFReader.orientation(tiff: $0) } == .right)
        #expect(decoded.metadata.sourceFormat == .tiff && decoded.metadata.sourceBitDepth == 8)
        let info = try Image.info(data: data)
        #expect(info.width == 12 && info.height == 8 && info.metadata.orientation == .right)
        // Without the options, none of it is written.
        let bare = try Image(
            data: try image.encoded(
                as: .tiff(TIFFEncodeOptions(includesICCProfile: false, includesXMP: false, writesOrientation: false))))
        #expect(bare.metadata.iccProfile == nil && bare.metadata.xmp == nil && bare.metadata.orientation == .up)
    }

    @Test("pages of different sizes: info lists them, AnimationReader gives each at its own size")
    func pages() throws {
        let images = [
            TestImages.noise(width: 30, height: 20, format: .rgb8),
            TestImages.noise(width: 7, height: 9, format: .gray8),
            TestImages.noise(width: 16, height: 4, format: .rgba8),
        ]
        let data = try TIFFEncoder.encode(images, options: TIFFEncodeOptions())
        let info = try Image.info(data: data)
        #expect(info.imageCount == 3 && info.animation == nil)
        #expect(info.pages.map(\.width) == [30, 7, 16] && info.pages.map(\.height) == [20, 9, 4])
        #expect(info.pages.map(\.pixelFormat) == [.rgb8, .gray8, .rgba8])
        #expect(try Image(data: data).pixels == images[0].pixels)
        let reader = try AnimationReader(data: data)
        #expect(reader.frameCount == 3 && reader.canvasWidth == 30 && reader.canvasHeight == 20)
        let frames = try reader.allFrames()
        #expect(frames.map(\.image.pixels) == images.map(\.pixels))
        #expect(frames.map(\.index) == [0, 1, 2])
        // The frame limit and the pixels of every page together are checked before any page is decoded.
        #expect(throws: ImageDecodingError.tooManyFrames(count: 3, limit: 2)) {
            try AnimationReader(data: data, options: DecodeOptions(frameLimit: 2))
        }
        // 600 + 63 + 64 pixels in all: the sum is what counts, not the first page's size times three.
        #expect(throws: ImageDecodingError.self) {
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: 600 + 63 + 64 - 1))
        }
        #expect(
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: 600 + 63 + 64)).frameCount == 3)
        // encodeAnimation writes frames as pages.
        let animated = try ImageEncoding.tiff.encodeAnimation(
            images.prefix(1).map { AnimationFrame(index: 0, image: $0, duration: .zero) } + [
                AnimationFrame(index: 1, image: images[0], duration: .zero)
            ])
        #expect(try Image.info(data: animated).imageCount == 2)
    }

    @Test("the pixel limit is checked from the header, before any decoding")
    func pixelLimit() throws {
        let data = try TestImages.noise(width: 40, height: 30, format: .rgb8).encoded(as: .tiff)
        #expect(throws: ImageDecodingError.tooLarge(width: 40, height: 30, limit: 1000)) {
            try Image(data: data, options: DecodeOptions(pixelLimit: 1000))
        }
    }

    @Test("cut at every offset: strict throws a typed error, lenient keeps what is whole or throws, never crashes")
    func truncation() throws {
        let image = TestImages.noise(width: 300, height: 300, format: .rgb8)
        for compression in TIFFEncodeOptions.Compression.allCases {
            let data = try image.encoded(as: .tiff(TIFFEncodeOptions(compression: compression)))
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 97)) {
                let prefix = data.prefix(cut)
                #expect(throws: ImageDecodingError.self) { try Image(data: prefix) }
                // libtiff writes the directory after the strips: a cut file has lost it, so lenient mode
                // has nothing to keep either, and says so with a typed error.
                if let lenient = try? Image(data: prefix, options: DecodeOptions(strictness: .lenient)) {
                    #expect(lenient.metadata.warnings.contains { $0.losesPixels })
                }
            }
        }
    }

    @Test("lenient decoding of the corpus's truncated strips keeps the whole strips before the cut")
    func truncatedCorpusFile() throws {
        guard Corpora.isAvailable else { return }
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("tiff", "gen-truncated-strips.tif")))
        #expect(throws: ImageDecodingError.self) { try Image(data: data) }
        let image = try Image(data: data, options: DecodeOptions(strictness: .lenient))
        let warning = try #require(image.metadata.warnings.first { $0.code == "tiff-truncated" })
        #expect(warning.kind == .truncated)
        // The rows from the failing strip on are zero, the ones before are the picture's.
        let rowBytes = image.bytesPerRow
        let lastNonZeroRow = (image.pixels.lastIndex { $0 != 0 } ?? 0) / rowBytes
        #expect(lastNonZeroRow > 0 && lastNonZeroRow < image.height - 1)
    }

    @Test("random damage never crashes; every failure is a typed error")
    func damage() throws {
        let image = TestImages.noise(width: 64, height: 48, format: .rgba8)
        for compression in TIFFEncodeOptions.Compression.allCases {
            let data = [UInt8](try image.encoded(as: .tiff(TIFFEncodeOptions(compression: compression))))
            var state: UInt32 = 7
            for _ in 0..<60 {
                var damaged = data
                for _ in 0..<4 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    damaged[Int(state >> 8) % damaged.count] ^= UInt8(truncatingIfNeeded: state >> 3) | 1
                }
                for strictness in [DecodeOptions.Strictness.strict, .lenient] {
                    _ = try? Image(data: Data(damaged), options: DecodeOptions(strictness: strictness))
                    _ = try? Image.info(data: Data(damaged))
                    _ = try? AnimationReader(data: Data(damaged)).allFrames()
                }
            }
        }
    }

    @Test("floating-point samples are refused with a typed error naming them")
    func floatRefused() throws {
        guard Corpora.isAvailable else { return }
        let data = try Data(
            contentsOf: URL(fileURLWithPath: Corpora.path("tiff", "libtiff-test_float64_predictor2_le_lzw.tif")))
        #expect(
            throws: ImageDecodingError.unsupportedFeature(
                format: .tiff, feature: "floating-point samples (SampleFormat 3) at 64 bits")
        ) { try Image(data: data) }
    }

    @Test("every corpus file, cut at many offsets, decodes or throws a typed error in both modes")
    func corpusTruncation() throws {
        for name in Corpora.files(in: "tiff", where: { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") }) {
            let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("tiff", name)))
            guard data.count < 400_000 else { continue }
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 13)) {
                for strictness in [DecodeOptions.Strictness.strict, .lenient] {
                    _ = try? Image(data: data.prefix(cut), options: DecodeOptions(strictness: strictness))
                }
            }
        }
    }

    @Test("random damage to every small corpus file: a typed error or an image, in both modes, never a crash")
    func corpusDamage() throws {
        var state: UInt32 = 11
        for name in Corpora.files(in: "tiff", where: { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") }) {
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpora.path("tiff", name))))
            guard data.count < 100_000 else { continue }
            for _ in 0..<24 {
                var damaged = data
                for _ in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    // Mostly the first kilobytes, where the header and directories usually are.
                    let range = state & 1 == 0 ? min(damaged.count, 2048) : damaged.count
                    damaged[Int(state >> 9) % range] ^= UInt8(truncatingIfNeeded: state >> 2) | 1
                }
                let bytes = Data(damaged)
                // Damage can declare a huge page: small limits keep a debug build's decodes short.
                let options = DecodeOptions(pixelLimit: 1 << 20, strictness: .lenient, animationPixelLimit: 1 << 21)
                _ = try? Image.info(data: bytes)
                _ = try? Image(data: bytes, options: options)
                _ = try? AnimationReader(data: bytes, options: options).allFrames()
                _ = try? Thumbnailer(.init(size: .box(32), pixelLimit: 1 << 20, sourcePixelLimit: 1 << 22))
                    .thumbnail(data: bytes)
            }
        }
    }

    @Test("the warning table's codes are unique and TIFF-prefixed")
    func warningTable() {
        let codes = TIFFWarningTable.rows.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.hasPrefix("tiff-") })
    }
}

/// The EXIF block a TIFF page's EXIF directory becomes.
@Suite("TIFF EXIF: the page's EXIF and GPS directories re-serialised as a block")
struct TIFFEXIFTests {
    /// The ASCII value of `tag` in the directory `pointerTag` of IFD0 points to, in a little-endian block.
    static func ascii(_ block: [UInt8], directory pointerTag: UInt16, tag: UInt16) -> String? {
        func u16(_ at: Int) -> Int { Int(block[at]) | Int(block[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func entries(_ at: Int) -> [(tag: Int, type: Int, count: Int, field: Int)] {
            (0..<u16(at)).map { index in
                let entry = at + 2 + index * 12
                return (u16(entry), u16(entry + 2), u32(entry + 4), entry + 8)
            }
        }
        guard block.starts(with: [0x49, 0x49, 42, 0]),
            let pointer = entries(u32(4)).first(where: { $0.tag == Int(pointerTag) }),
            let entry = entries(u32(pointer.field)).first(where: { $0.tag == Int(tag) }), entry.type == 2
        else { return nil }
        let start = entry.count <= 4 ? entry.field : u32(entry.field)
        return String(decoding: block[start..<(start + entry.count)].prefix { $0 != 0 }, as: UTF8.self)
    }

    @Test("the corpus file with EXIF and GPS directories: both are in the block, with their values")
    func exifAndGPS() throws {
        guard Corpora.isAvailable else { return }
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("tiff", "libtiff-custom_dir_EXIF_GPS.tiff")))
        let image = try Image(data: data)
        let block = try #require(image.metadata.exif)
        #expect(EXIFReader.orientation(tiff: block) == .up)
        // DateTimeOriginal (0x9003) in the EXIF directory, GPSVersionID's neighbour GPSLatitudeRef absent:
        // the GPS directory is found by its pointer.
        #expect(Self.ascii(block, directory: 34665, tag: 0x9003) == "N13-String-13_ttttt")
        #expect(try Image.info(data: data).metadata.exif == block)
    }

    @Test("a page without EXIF gets the minimal block of its Orientation tag; none without the tag")
    func orientationOnly() throws {
        var image = TestImages.noise(width: 4, height: 4, format: .gray8)
        image.metadata.orientation = .left
        let decoded = try Image(data: try image.encoded(as: .tiff))
        #expect(decoded.metadata.exif == EXIFOrientationWriter.minimalBlock(orientation: .left))
        image.metadata.orientation = .up
        #expect(try Image(data: try image.encoded(as: .tiff)).metadata.exif == nil)
    }
}
