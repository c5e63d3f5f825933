import Testing

@testable import PixpipeImage

@Suite struct EXIFOrientationWriterTests {
    @Test(arguments: [false, true])
    func patchesTheTagInPlace(bigEndian: Bool) {
        let block = EXIFReaderTests.tiff(orientation: 6, bigEndian: bigEndian)
        let patched = EXIFOrientationWriter.block(block, orientation: .downMirrored)
        #expect(patched?.count == block.count)
        #expect(patched.map { EXIFReader.orientation(tiff: $0) } == .downMirrored)
    }

    @Test func keepsABlockWithoutTheTagWhenUpright() {
        let block: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(EXIFOrientationWriter.block(block, orientation: .up) == block)
        #expect(EXIFOrientationWriter.block(nil, orientation: .up) == nil)
    }

    @Test func writesAMinimalBlockWhenTheTagIsMissing() {
        let block: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let written = EXIFOrientationWriter.block(block, orientation: .left)
        #expect(written.map { EXIFReader.orientation(tiff: $0) } == .left)
        #expect(EXIFOrientationWriter.block(nil, orientation: .right).map { EXIFReader.orientation(tiff: $0) } == .right)
    }
}
