import Foundation
import Pixpipe
import Testing

@Suite(
    "pixpipe thumbnail of a large TIFF: memory", .enabled(if: PixpipeExecutable.built != nil, "pixpipe is not built"))
struct TIFFThumbnailMemoryTests {
    /// An uncompressed 8000x6000 RGB TIFF is a 144 MB file: the thumbnail maps it and gives back each
    /// strip's pages once decoded, so the child's peak RSS stays well under the file's size (reading the
    /// file whole, as before, peaked above it).
    @Test func anUncompressedTIFFLargerThanTheBoundIsThumbnailedWithoutHoldingTheFile() throws {
        let (width, height, rowsPerStrip) = (8000, 6000, 16)
        let input = try TemporaryDirectory()
        let path = input.path("large.tif")
        try Self.writeUncompressedRGB(width: width, height: height, rowsPerStrip: rowsPerStrip, to: path)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileBytes > width * height * 3)
        let output = try TemporaryDirectory()

        let executable = try #require(PixpipeExecutable.built).url.path
        let run = ChildProcessPeak.run(
            executable, ["thumbnail", path, "--out", output.url.path, "--size", "256", "--filter", "box"])
        #expect(run.status == 0)
        let info = try Image.info(contentsOfFile: output.path("large.jpg"))
        #expect(info.width == 256 && info.height == 192)
        // Under a sanitizer shadow memory inflates the peak; under one file's size still shows it was not held.
        let bound = ChildProcessUsage.isSanitized ? fileBytes : fileBytes / 3
        #expect(run.peakBytes > 0 && run.peakBytes < bound, "child peak RSS \(run.peakMiB) MiB")
    }

    /// Writes a little-endian striped TIFF with no compression: the directory and its arrays first, then
    /// the rows (a gradient), written a strip at a time.
    static func writeUncompressedRGB(width: Int, height: Int, rowsPerStrip: Int, to path: String) throws {
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        let rowBytes = width * 3
        let entryCount = 9
        let directoryBytes = 2 + entryCount * 12 + 4
        let bitsOffset = 8 + directoryBytes
        let offsetsOffset = bitsOffset + 6
        let countsOffset = offsetsOffset + strips * 4
        let dataOffset = countsOffset + strips * 4
        var head: [UInt8] = [0x49, 0x49, 42, 0]
        func u16(_ value: Int) { head += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { head.append(UInt8(value >> shift & 0xFF)) }
        }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) {
            u16(tag)
            u16(type)
            u32(count)
            if type == 3 && count == 1 { u16(value); u16(0) } else { u32(value) }
        }
        u32(8)
        u16(entryCount)
        entry(256, 4, 1, width)
        entry(257, 4, 1, height)
        entry(258, 3, 3, bitsOffset)
        entry(259, 3, 1, 1)
        entry(262, 3, 1, 2)
        entry(273, 4, strips, offsetsOffset)
        entry(277, 3, 1, 3)
        entry(278, 4, 1, rowsPerStrip)
        entry(279, 4, strips, countsOffset)
        u32(0)
        for _ in 0..<3 { u16(8) }
        for strip in 0..<strips { u32(dataOffset + strip * rowsPerStrip * rowBytes) }
        for strip in 0..<strips { u32(min(rowsPerStrip, height - strip * rowsPerStrip) * rowBytes) }
        precondition(head.count == dataOffset)
        try #require(FileManager.default.createFile(atPath: path, contents: Data(head)))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.seekToEnd()
        // A horizontal gradient whose level steps from strip to strip.
        let row = (0..<rowBytes).map { UInt8(truncatingIfNeeded: $0 / 97) }
        for strip in 0..<strips {
            let shifted = Data(row.map { $0 &+ UInt8(truncatingIfNeeded: strip) })
            let rows = min(rowsPerStrip, height - strip * rowsPerStrip)
            var band = Data(capacity: rows * rowBytes)
            for _ in 0..<rows { band.append(shifted) }
            try file.write(contentsOf: band)
        }
    }
}
