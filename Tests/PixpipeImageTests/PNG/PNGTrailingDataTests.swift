import Foundation
import Testing

@testable import PixpipeImage

/// Compressed image data after the last row: a stream's end is fine, a decompression bomb is refused.
///
/// libpng inflates whatever follows the last row to find the end of the zlib stream, so a small image
/// can hide a stream that inflates to gigabytes. The decoder stops when far more than a stream's end is
/// left (over 16 KiB); less, which libpng tolerates, still decodes. Both are benign: the rows
/// are whole, so strict mode decodes them too, with a warning.
@Suite struct PNGTrailingDataTests {
    /// The error strict decoding throws for too much data after the last row.
    static let excessMessage = "too much image data after the last row"

    /// A 40 x 30 8-bit gray PNG of zeros whose single IDAT stream inflates to `extraBytes` more than the
    /// image needs, in stored blocks, so the compressed excess is about `extraBytes` too.
    static func zeroPNG(extraBytes: Int, interlaced: Bool = false) -> [UInt8] {
        let (width, height) = (40, 30)
        let needed = interlaced ? adam7ByteCount(width: width, height: height) : height * (1 + width)
        let stream = StoredZlib.stream([UInt8](repeating: 0, count: needed + extraBytes))
        return PNGBytes.signature
            + PNGBytes.ihdr(width: UInt32(width), height: UInt32(height), interlaced: interlaced)
            + PNGBytes.chunk("IDAT", stream) + PNGBytes.chunk("IEND", [])
    }

    /// The filtered bytes of the seven Adam7 passes of an 8-bit gray image (one filter byte per row).
    static func adam7ByteCount(width: Int, height: Int) -> Int {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            let (xStart, yStart, xStep, yStep) = pass
            let columns = (width - xStart + xStep - 1) / xStep
            let rows = (height - yStart + yStep - 1) / yStep
            return total + (columns > 0 && rows > 0 ? rows * (1 + columns) : 0)
        }
    }

    @Test(arguments: [false, true])
    func someDataAfterTheLastRowStillDecodes(interlaced: Bool) throws {
        // libpng reads 8 KiB at a time, so about 5 KiB are still unread in the file after the last row.
        let image = try PNGDecoderTests.decode(Self.zeroPNG(extraBytes: 12 << 10, interlaced: interlaced))
        #expect(image.width == 40 && image.height == 30 && image.pixelFormat == .gray8)
        #expect(image.metadata.warnings.map(\.code) == ["png-data-after-last-row"])
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [false, true])
    func muchDataAfterTheLastRowIsABenignWarningWhenStrict(interlaced: Bool) throws {
        let png = Self.zeroPNG(extraBytes: 64 << 10, interlaced: interlaced)
        let image = try PNGDecoderTests.decode(png)
        #expect(image.metadata.warnings.map(\.kind) == [.benign])
        #expect(image.metadata.warnings.first?.message == Self.excessMessage)
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [false, true])
    func muchDataAfterTheLastRowKeepsTheRowsWhenLenient(interlaced: Bool) throws {
        let png = Self.zeroPNG(extraBytes: 64 << 10, interlaced: interlaced)
        let image = try PNGDecoderTests.decode(png, options: DecodeOptions(strictness: .lenient))
        #expect(image.width == 40 && image.height == 30)
        #expect(image.metadata.warnings.map(\.kind) == [.benign])
        let message = try #require(image.metadata.warnings.first?.message)
        #expect(message.hasPrefix(Self.excessMessage))
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test func theStreamingThumbnailWarnsAboutMuchDataAfterTheLastRowWhenStrict() throws {
        let png = Data(Self.zeroPNG(extraBytes: 64 << 10))
        let thumbnail = try Thumbnailer(.init(size: .box(10))).thumbnail(data: png)
        #expect(thumbnail.metadata.warnings.map(\.code) == ["png-excess-data-after-last-row"])
        #expect(thumbnail.pixels.allSatisfy { $0 == 0 })
    }

    @Test func theStreamingThumbnailWarnsAboutMuchDataAfterTheLastRowWhenLenient() throws {
        let png = Data(Self.zeroPNG(extraBytes: 64 << 10))
        let thumbnail = try Thumbnailer(.init(size: .box(10), strictness: .lenient)).thumbnail(data: png)
        #expect(thumbnail.width == 10 && thumbnail.height == 8)
        #expect(thumbnail.metadata.warnings.map(\.kind) == [.benign])
        #expect(thumbnail.pixels.allSatisfy { $0 == 0 })
    }
}
