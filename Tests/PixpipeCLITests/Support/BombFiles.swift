import Foundation
import Pixpipe
import PixpipeTestSupport

/// Hostile image files built in memory: huge declared sizes, decompression bombs, endless scans.
///
/// Nothing here is stored in the repository: each file is a few bytes of structure around a
/// ``ZeroDeflate`` stream or a re-arranged output of the library's own encoder.
enum BombFiles {
    /// The bytes a decompression bomb inflates to: 1 GiB (6.5 MB compressed).
    static let bombSize = 1 << 30

    /// A zlib stream of ``bombSize`` zeros, built once (it takes a moment in a debug build).
    static let gigabyteOfZeros: [UInt8] = ZeroDeflate.zlib(zeroBytes: bombSize)

    /// A gray PNG declaring `width` x `height` whose IDAT is `idat` (a zlib stream).
    static func png(width: UInt32, height: UInt32, idat: [UInt8], extraChunks: [[UInt8]] = []) -> [UInt8] {
        var ihdr = bigEndian(width) + bigEndian(height)
        ihdr += [8, 0, 0, 0, 0]  // 8-bit gray, deflate, adaptive filters, not interlaced
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", ihdr)
        for extra in extraChunks { file += extra }
        file += chunk("IDAT", idat) + chunk("IEND", [])
        return file
    }

    /// A valid 8 x 8 gray PNG carrying `chunk` before its pixels.
    static func smallPNG(with extra: [UInt8]) -> [UInt8] {
        png(width: 8, height: 8, idat: ZeroDeflate.zlib(zeroBytes: 8 * 9), extraChunks: [extra])
    }

    /// A zTXt chunk whose text inflates to ``bombSize`` bytes.
    static var zTXtBomb: [UInt8] { chunk("zTXt", Array("Comment".utf8) + [0, 0] + gigabyteOfZeros) }

    /// A compressed iTXt chunk whose text inflates to ``bombSize`` bytes.
    static var iTXtBomb: [UInt8] {
        chunk("iTXt", Array("Comment".utf8) + [0, 1, 0] + [0] + [0] + gigabyteOfZeros)
    }

    /// An iCCP chunk whose profile inflates to ``bombSize`` bytes.
    static var iCCPBomb: [UInt8] { chunk("iCCP", Array("icc".utf8) + [0, 0] + gigabyteOfZeros) }

    /// A small baseline JPEG from the library's encoder.
    static func smallJPEG(progressive: Bool = false) throws -> [UInt8] {
        let image = TestImages.gradient(width: 16, height: 16, layout: .rgb)
        return Array(try image.encoded(as: .jpeg(JPEGEncodeOptions(quality: 80, progressive: progressive))))
    }

    /// A JPEG whose frame header declares 65,500 x 65,500 pixels (libjpeg's maximum), 4.3 gigapixels.
    static func hugeJPEG() throws -> [UInt8] {
        var bytes = try smallJPEG()
        guard let sof = marker(0xC0, in: bytes) else { throw BombError.noSuchMarker("SOF0") }
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        for offset in [sof + 5, sof + 7] { bytes[offset] = 0xFF }
        for offset in [sof + 6, sof + 8] { bytes[offset] = 0xDC }
        return bytes
    }

    /// A progressive JPEG whose last scan is repeated until the file holds `scans` scans.
    static func manyScanJPEG(scans: Int) throws -> [UInt8] {
        let bytes = try smallJPEG(progressive: true)
        var starts: [Int] = []
        var offset = 0
        while let next = marker(0xDA, in: bytes, from: offset) {
            starts.append(next)
            offset = next + 2
        }
        guard let last = starts.last, starts.count < scans else { throw BombError.noSuchMarker("SOS") }
        let lastScan = Array(bytes[last..<(bytes.count - 2)])  // up to, not including, EOI
        var file = Array(bytes[..<(bytes.count - 2)])
        for _ in 0..<(scans - starts.count) { file += lastScan }
        return file + [0xFF, 0xD9]
    }

    /// A JPEG with an EXIF block whose IFD0 links to itself, twice: as its next IFD and as its EXIF sub-IFD.
    static func cyclicEXIFJPEG() throws -> [UInt8] {
        // Little-endian TIFF: header, then IFD0 at offset 8 with two entries and a next-IFD offset of 8.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        tiff += [0x02, 0x00]
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00]  // Orientation = 6
        tiff += [0x69, 0x87, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00]  // ExifIFD -> 8
        tiff += [0x08, 0x00, 0x00, 0x00]  // next IFD -> 8
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)]
        let jpeg = try smallJPEG()
        return Array(jpeg[..<2]) + app1 + payload + Array(jpeg[2...])
    }

    /// Why a bomb could not be built from the encoder's output.
    enum BombError: Error {
        /// The encoder's JPEG lacks a marker the construction needs.
        case noSuchMarker(String)
    }

    /// The offset of the first `FF <code>` marker at or after `start`.
    private static func marker(_ code: UInt8, in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard start + 1 < bytes.count else { return nil }
        return (start..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == code }
    }

    /// One PNG chunk: length, type, data, CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
