import Testing

@testable import PixpipeImage

@Suite struct EXIFReaderTests {
    /// A minimal TIFF block with one IFD0 entry: orientation = `value`.
    static func tiff(orientation value: UInt8, bigEndian: Bool) -> [UInt8] {
        if bigEndian {
            return [
                0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0, 0, 0,
            ]
        }
        return [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0]
    }

    @Test(arguments: [false, true], Array(1...8))
    func readsOrientationInBothByteOrders(bigEndian: Bool, value: Int) {
        let block = Self.tiff(orientation: UInt8(value), bigEndian: bigEndian)
        #expect(EXIFReader.orientation(tiff: block) == Orientation(rawValue: value))
    }

    @Test func rejectsMalformedBlocks() {
        #expect(EXIFReader.orientation(tiff: [UInt8]()) == nil)
        #expect(EXIFReader.orientation(tiff: [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
        var outOfRange = Self.tiff(orientation: 9, bigEndian: false)
        #expect(EXIFReader.orientation(tiff: outOfRange) == nil)
        outOfRange[8] = 0xFF  // entry count far beyond the block
        #expect(EXIFReader.orientation(tiff: outOfRange) == nil)
    }

    @Test func stripsTheAPP1Prefix() {
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + Self.tiff(orientation: 6, bigEndian: true)
        let block = EXIFReader.tiffBlock(app1Payload: payload)
        #expect(block.map { EXIFReader.orientation(tiff: $0) } == .right)
        #expect(EXIFReader.tiffBlock(app1Payload: Array("XMP".utf8)) == nil)
    }
}
