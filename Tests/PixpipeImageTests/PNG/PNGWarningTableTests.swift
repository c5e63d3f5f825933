import Foundation
import Testing

@testable import PixpipeImage

/// PNG's warning table: anomalies built from a clean file decode in strict mode to the clean pixels with
/// their benign warning; anomalies that lose pixels still fail in strict mode.
@Suite struct PNGWarningTableTests {
    static let source = TestImages.noise(width: 24, height: 16, format: .rgb8)
    static let clean: [UInt8] = [UInt8](try! source.encoded(as: .png))
    static let lenient = DecodeOptions(strictness: .lenient)

    /// `chunk` inserted before the first chunk of type `type` in `png`.
    static func inserting(_ chunk: [UInt8], before type: String, in png: [UInt8]) throws -> [UInt8] {
        let target = try #require(PNGBytes.chunks(of: png).first { $0.type == type })
        var bytes = png
        bytes.insert(contentsOf: chunk, at: target.start)
        return bytes
    }

    /// A chunk of `type` whose CRC does not match.
    static func damagedChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var chunk = PNGBytes.chunk(type, data)
        chunk[chunk.count - 1] ^= 0x01
        return chunk
    }

    @Test(arguments: ["IDAT", "IEND"])
    func anUnknownAncillaryChunkWithABadCRCIsBenignInStrictMode(before type: String) throws {
        let bytes = try Self.inserting(Self.damagedChunk("prVt", Array("private".utf8)), before: type, in: Self.clean)
        let image = try PNGDecoderTests.decode(bytes)
        #expect(image.pixels == Self.source.pixels)
        #expect(image.metadata.warnings.map(\.code) == ["png-ancillary-chunk"])
        #expect(image.metadata.warnings.first?.kind == .benign)
        let header = try bytes.withUnsafeBytes { raw in try PNGDecoder.info(raw) }
        // Before the image data the header sees it; after, only a decode does.
        #expect(header.metadata.warnings.map(\.code) == (type == "IDAT" ? ["png-ancillary-chunk"] : []))
    }

    @Test func aDamagedTextChunkIsBenignInStrictMode() throws {
        let bytes = try Self.inserting(
            Self.damagedChunk("tEXt", Array("Comment\u{0}hello".utf8)), before: "IDAT", in: Self.clean)
        let image = try PNGDecoderTests.decode(bytes)
        #expect(image.pixels == Self.source.pixels)
        #expect(image.metadata.warnings.map(\.code) == ["png-ancillary-chunk"])
    }

    @Test func dataAfterTheLastRowIsBenignInStrictMode() throws {
        // More image data after another chunk, once the image's stream has ended ("Too many IDATs found").
        let extra =
            PNGBytes.chunk("tEXt", Array("Comment\u{0}late".utf8))
            + PNGBytes.chunk("IDAT", StoredZlib.stream([UInt8](repeating: 9, count: 100)))
        let bytes = try Self.inserting(extra, before: "IEND", in: Self.clean)
        let image = try PNGDecoderTests.decode(bytes)
        #expect(image.pixels == Self.source.pixels)
        #expect(image.metadata.warnings.map(\.code) == ["png-data-after-last-row"])
        #expect(image.metadata.warnings.first?.kind == .benign)
    }

    @Test func someDataAfterTheLastRowIsBenignInStrictMode() throws {
        let image = try PNGDecoderTests.decode(PNGTrailingDataTests.zeroPNG(extraBytes: 12 << 10))
        #expect(image.pixels == (try PNGDecoderTests.decode(PNGTrailingDataTests.zeroPNG(extraBytes: 0))).pixels)
        #expect(image.metadata.warnings.map(\.code) == ["png-data-after-last-row"])
    }

    @Test func muchDataAfterTheLastRowIsBenignInStrictMode() throws {
        let image = try PNGDecoderTests.decode(PNGTrailingDataTests.zeroPNG(extraBytes: 64 << 10))
        #expect(image.pixels.allSatisfy { $0 == 0 })
        #expect(image.metadata.warnings.map(\.code) == ["png-excess-data-after-last-row"])
    }

    @Test func aDamagedTransparencyChunkFailsInStrictMode() throws {
        let bytes = try Self.inserting(Self.damagedChunk("tRNS", [0, 1, 0, 2, 0, 3]), before: "IDAT", in: Self.clean)
        #expect(PNGDecoderTests.decodeError(bytes) == .corrupt)
        let image = try PNGDecoderTests.decode(bytes, options: Self.lenient)
        #expect(image.pixelFormat == .rgb8)
        #expect(image.metadata.warnings.map(\.code) == ["png-transparency-lost"])
    }

    @Test func truncationAtManyOffsetsFailsInStrictMode() {
        for length in stride(from: 0, to: Self.clean.count, by: 13) {
            #expect(PNGDecoderTests.decodeError(Array(Self.clean.prefix(length))) == .truncated, "cut at \(length)")
        }
    }

    @Test func aCRCErrorInTheImageDataFailsInStrictMode() throws {
        let idat = try #require(PNGBytes.chunks(of: Self.clean).first { $0.type == "IDAT" })
        var bytes = Self.clean
        bytes[idat.end - 1] ^= 0x01
        #expect(PNGDecoderTests.decodeError(bytes) == .corrupt)
        let image = try PNGDecoderTests.decode(bytes, options: Self.lenient)
        #expect(image.metadata.warnings.map(\.code) == ["png-damaged-image-data"])
    }

    @Test func everyRowHasAUniqueCodeAndAReason() {
        let rules = PNGWarningTable.rows
        #expect(Set(rules.map(\.code)).count == rules.count)
        #expect(rules.allSatisfy { $0.code.hasPrefix("png-") && !$0.reason.isEmpty && !$0.libraryCode.isEmpty })
    }
}
