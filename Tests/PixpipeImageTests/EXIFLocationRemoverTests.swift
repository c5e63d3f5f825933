import Testing

@testable import PixpipeImage

/// Removing the GPS directory from EXIF blocks in both byte orders, and refusing blocks it cannot read.
@Suite("EXIF location removal")
struct EXIFLocationRemoverTests {
    /// IFD0 with an orientation (6) and a GPS pointer, then a GPS IFD with one RATIONAL latitude, in the
    /// byte order `littleEndian` says.
    static func block(littleEndian: Bool) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
            return littleEndian ? bytes : bytes.reversed()
        }
        func u32(_ value: Int) -> [UInt8] {
            littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
        }
        let header: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        // IFD0 at 8: 2 + 2 * 12 + 4 = 30 bytes; GPS IFD at 38: 2 + 12 + 4 = 18 bytes; the rational at 56.
        let ifd0 =
            u16(2) + u16(0x0112) + u16(3) + u32(1) + u16(6) + u16(0) + u16(0x8825) + u16(4) + u32(1) + u32(38)
            + u32(0)
        let gps = u16(1) + u16(0x0002) + u16(5) + u32(1) + u32(56) + u32(0)
        return header + ifd0 + gps + u32(4242) + u32(100)
    }

    @Test(arguments: [true, false])
    func removesTheDirectoryAndKeepsTheRest(littleEndian: Bool) throws {
        let exif = Self.block(littleEndian: littleEndian)
        #expect(EXIFLocationRemover.hasLocation(exif))
        let cleaned = try #require(EXIFLocationRemover.removingLocation(from: exif))
        #expect(cleaned.count == exif.count)
        #expect(!EXIFLocationRemover.hasLocation(cleaned))
        #expect(EXIFReader.orientation(tiff: cleaned) == .right)
        // The GPS IFD and its value are zeros now.
        #expect(cleaned[38...].allSatisfy { $0 == 0 })
    }

    @Test func blocksWithoutLocationStayAndBrokenOnesAreRefused() {
        let plain = EXIFOrientationWriter.minimalBlock(orientation: .up)
        #expect(EXIFLocationRemover.removingLocation(from: plain) == plain)
        #expect(EXIFLocationRemover.removingLocation(from: [0x49, 0x49, 42, 0, 200, 0, 0, 0]) == nil)
        #expect(EXIFLocationRemover.removingLocation(from: [1, 2, 3]) == nil)
        var metadata = ImageMetadata()
        metadata.exif = [0x49, 0x49, 42, 0, 200, 0, 0, 0]
        metadata.removeLocation()
        #expect(metadata.exif == nil)
    }
}
