import Foundation
import Testing

@testable import PixpipeImage

/// The fast path (libdeflate and in-place unfiltering) gives what libpng's row loop gives, to the byte:
/// pixels, layout, metadata and warnings, or the same error, over PngSuite (corrupt files included), the
/// Kodak photos and damaged variants of one of them, in both strictness modes and both sample depths.
@Suite(.enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct PNGFastPathTests {
    static let suiteFiles = Corpora.files(in: "pngsuite") { $0.hasSuffix(".png") }.map { ["pngsuite", $0] }
    static let kodakFiles = Corpora.files(in: "kodak") { $0.hasSuffix(".png") }.map { ["kodak", $0] }

    static let optionSets: [DecodeOptions] = [
        DecodeOptions(),
        DecodeOptions(keeps16Bit: true, strictness: .lenient),
    ]

    @Test func theCorporaArePresent() {
        #expect(Self.suiteFiles.count >= 175)
        #expect(Self.kodakFiles.count == 24)
    }

    @Test(arguments: suiteFiles + kodakFiles)
    func matchesTheLibpngPath(path: [String]) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpora.path(path[0], path[1])))
        try Self.expectSameDecodes(bytes)
    }

    /// The Kodak photos and PngSuite's 8- and 16-bit gray, gray+alpha, RGB and RGBA files are of the shape the
    /// fast path takes; palette, tRNS and interlaced files are not.
    @Test func takesTheCommonShapes() throws {
        for path in Self.kodakFiles {
            #expect(try Self.plan(Corpora.path(path[0], path[1]), options: DecodeOptions()) != nil, "\(path[1])")
        }
        for file in ["basn0g08.png", "basn2c08.png", "basn4a08.png", "basn6a08.png", "f04n2c08.png"] {
            #expect(try Self.plan(Corpora.path("pngsuite", file), options: DecodeOptions()) != nil, "\(file)")
        }
        let sixteen = DecodeOptions(keeps16Bit: true)
        #expect(try Self.plan(Corpora.path("pngsuite", "basn2c16.png"), options: sixteen) != nil)
        #expect(try Self.plan(Corpora.path("pngsuite", "basn2c16.png"), options: DecodeOptions()) == nil)
        for file in ["basn3p08.png", "basi2c08.png", "tbrn2c08.png", "basn0g04.png"] {
            #expect(try Self.plan(Corpora.path("pngsuite", file), options: DecodeOptions()) == nil, "\(file)")
        }
    }

    /// Damage the fast path must hand over to libpng: a cut file, a flipped image byte (CRC now wrong), the
    /// same with its CRC made right again (the stream itself damaged), a bad filter type, a second stream
    /// after the image data's, and chunks between IDAT and IEND.
    @Test func damagedFilesMatchTheLibpngPath() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpora.path("kodak", "kodim01.png"))))
        let chunks = PNGBytes.chunks(of: original)
        let idat = try #require(chunks.first { $0.type == "IDAT" })
        var variants: [[UInt8]] = [Array(original.prefix(original.count / 2)), Array(original.dropLast(12))]
        var flipped = original
        flipped[(idat.dataStart + idat.end - 4) / 2] ^= 0x55
        variants.append(flipped)
        let crc = PNGBytes.crc32(Array(flipped[(idat.start + 4)..<(idat.end - 4)]))
        flipped.replaceSubrange((idat.end - 4)..<idat.end, with: PNGBytes.bigEndian(crc))
        variants.append(flipped)
        let iend = try #require(chunks.last { $0.type == "IEND" })
        var late = Array(original[..<iend.start])
        late += PNGBytes.chunk("tEXt", Array("Comment\0late".utf8)) + original[iend.start...]
        variants.append(late)
        let row: [UInt8] = [0x80, 0x40, 0x20]
        for filter: UInt8 in [0, 1, 2, 3, 4, 5] {
            variants.append(Self.gray(rows: [[filter] + row, [filter] + row]))
        }
        let stream = StoredZlib.stream([0] + row)
        variants.append(Self.gray(rows: [[0] + row], streams: [stream + stream]))
        variants.append(Self.gray(rows: [[0] + row], streams: [Array(stream.prefix(4)), Array(stream.dropFirst(4))]))
        variants.append(Self.gray(rows: [[0] + row], streams: [stream, []]))
        for variant in variants { try Self.expectSameDecodes(Data(variant)) }
    }

    /// A 3-pixel-wide 8-bit gray PNG of the given filtered rows, stored (not compressed); `streams`, when
    /// given, are the IDAT payloads instead.
    static func gray(rows: [[UInt8]], streams: [[UInt8]]? = nil) -> [UInt8] {
        var file = PNGBytes.signature + PNGBytes.ihdr(width: 3, height: UInt32(rows.count))
        for payload in streams ?? [StoredZlib.stream(rows.flatMap { $0 })] {
            file += PNGBytes.chunk("IDAT", payload)
        }
        return file + PNGBytes.chunk("IEND", [])
    }

    /// Every layout and depth the fast path takes, through libpng's encoder (which picks a filter per row
    /// among all five): smooth gradients with a little noise, so that every filter wins somewhere.
    @Test(arguments: [
        PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8, PixelFormat(layout: .rgb, bitsPerSample: 16),
        PixelFormat(layout: .rgba, bitsPerSample: 16), PixelFormat(layout: .grayAlpha, bitsPerSample: 16),
    ])
    func encodedImagesMatchTheLibpngPath(format: PixelFormat) throws {
        var image = Image(width: 97, height: 61, pixelFormat: format)
        let noise = TestImages.noise(width: 97, height: 61, format: format)
        let maximum = format.bitsPerSample == 16 ? 65535 : 255
        for y in 0..<61 {
            for x in 0..<97 {
                for channel in 0..<format.channels {
                    let smooth = (x * 3 + y * 5 + channel * 40) * maximum / 800
                    let jitter = y % 7 == 0 ? noise[x: x, y: y, channel: channel] % 16 : 0
                    image[x: x, y: y, channel: channel] = min(maximum, smooth + jitter)
                }
            }
        }
        let data = try PNGEncoder.encode(image, options: PNGEncodeOptions())
        try Self.expectSameDecodes(data)
        let decoded = try Image(data: data, options: DecodeOptions(keeps16Bit: true))
        #expect(decoded.pixels == image.pixels)
    }

    static func plan(_ path: String, options: DecodeOptions) throws -> PNGFastPath? {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return try bytes.withUnsafeBytes { raw in
            let reader = try PNGReader(bytes: raw)
            let header = try reader.readHeader()
            let (output, _) = try PNGDecoder.prepare(reader, header: header, options: options)
            return PNGFastPath(bytes: raw, reader: reader, header: header, output: output)
        }
    }

    static func expectSameDecodes(_ bytes: Data) throws {
        for options in optionSets {
            let fast = bytes.withUnsafeBytes { raw in
                Result { () throws(ImageDecodingError) in try PNGDecoder.decode(raw, options: options) }
            }
            let libpng = bytes.withUnsafeBytes { raw in
                Result { () throws(ImageDecodingError) in
                    let reader = try PNGReader(bytes: raw)
                    return try PNGDecoder.decode(reader, header: reader.readHeader(), bytes: nil, options: options)
                }
            }
            switch (fast, libpng) {
            case (.success(let fast), .success(let libpng)):
                #expect(fast.width == libpng.width && fast.height == libpng.height)
                #expect(fast.pixelFormat == libpng.pixelFormat)
                #expect(fast.pixels == libpng.pixels)
                #expect(fast.metadata == libpng.metadata)
            case (.failure(let fast), .failure(let libpng)):
                #expect(fast == libpng)
            default:
                Issue.record("the paths disagree: \(fast) against \(libpng)")
            }
        }
    }
}

/// The small files the memory test of the CLI suite decodes thousands of times (in a child process, whose
/// resident set no other test shares: `PNGFastPathMemoryTests` there) are ones the fast path takes.
struct PNGFastPathSmallFileTests {
    @Test func smallRGBAFilesOverSixteenKiBTakeTheFastPath() throws {
        for size in 80..<83 {
            // Over 16 KiB of filtered data: libpng's encoder declares a smaller zlib window below that.
            var image = Image(width: size, height: 64, pixelFormat: .rgba8)
            for y in 0..<64 {
                for x in 0..<size {
                    for channel in 0..<4 {
                        image[x: x, y: y, channel: channel] = (x * 29 + y * 13 + channel * 50) % 256
                    }
                }
            }
            let file = try PNGEncoder.encode(image, options: PNGEncodeOptions())
            let taken = try file.withUnsafeBytes { raw in
                let reader = try PNGReader(bytes: raw)
                let header = try reader.readHeader()
                let (output, _) = try PNGDecoder.prepare(reader, header: header, options: DecodeOptions())
                return PNGFastPath(bytes: raw, reader: reader, header: header, output: output) != nil
            }
            #expect(taken, "the fast path takes \(size)x64 RGBA")
            #expect(try Image(data: file, options: DecodeOptions()).pixels == image.pixels)
        }
    }
}
