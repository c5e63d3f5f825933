import PixpipeTestSupport

/// Crafted little-endian TIFFs for the bomb and memory tests: headers that declare far more than they hold.
enum TIFFBombFiles {
    /// One directory entry: tag, type (3 SHORT, 4 LONG), count, and the value or the offset of the values.
    typealias Entry = (tag: UInt16, type: UInt16, count: UInt32, value: UInt32)

    /// A gray 8-bit page's entries: `width` x `height`, `rowsPerStrip`, compression, and where the strip
    /// offsets and byte counts are (inline when there is one strip).
    static func grayEntries(
        width: UInt32, height: UInt32, rowsPerStrip: UInt32, compression: UInt16, strips: UInt32,
        offsets: UInt32, counts: UInt32
    ) -> [Entry] {
        [
            (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, UInt32(compression)),
            (262, 3, 1, 1), (273, 4, strips, offsets), (277, 3, 1, 1), (278, 4, 1, rowsPerStrip),
            (279, 4, strips, counts),
        ]
    }

    /// The bytes of a directory of `entries` whose next directory is at `next`.
    static func directory(_ entries: [Entry], next: UInt32) -> [UInt8] {
        var bytes = le16(UInt16(entries.count))
        for entry in entries {
            bytes += le16(entry.tag) + le16(entry.type) + le32(entry.count)
            bytes += entry.type == 3 && entry.count == 1 ? le16(UInt16(entry.value)) + [0, 0] : le32(entry.value)
        }
        return bytes + le32(next)
    }

    /// A 1x1 gray page followed by `pages` - 1 empty directories, each pointing to the next: 6 bytes a page.
    static func manyPages(_ pages: Int) -> [UInt8] {
        // Header (8), the pixel (1, padded to 2), then the first directory at 10.
        let first = 10
        let firstSize = 2 + 9 * 12 + 4
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + le32(UInt32(first)) + [128, 0]
        let entries = grayEntries(
            width: 1, height: 1, rowsPerStrip: 1, compression: 1, strips: 1, offsets: 8, counts: 1)
        bytes += directory(entries, next: pages > 1 ? UInt32(first + firstSize) : 0)
        bytes.reserveCapacity(bytes.count + pages * 6)
        for page in 1..<max(pages, 1) {
            let next = page + 1 < pages ? UInt32(bytes.count + 6) : 0
            bytes += [0, 0] + le32(next)
        }
        return bytes
    }

    /// A gray page of `width` x `height` in strips of `rowsPerStrip` rows, every strip the same Deflate stream
    /// of zeros stored once: a file of a few kilobytes per thousand strips that inflates to the whole page.
    static func zeroStrips(width: Int, height: Int, rowsPerStrip: Int) -> [UInt8] {
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        let stream = ZeroDeflate.zlib(zeroBytes: width * rowsPerStrip)
        let streamOffset = 8
        let offsetsAt = streamOffset + stream.count
        let countsAt = offsetsAt + 4 * strips
        let directoryAt = countsAt + 4 * strips
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + le32(UInt32(directoryAt)) + stream
        for _ in 0..<strips { bytes += le32(UInt32(streamOffset)) }
        for _ in 0..<strips { bytes += le32(UInt32(stream.count)) }
        let entries = grayEntries(
            width: UInt32(width), height: UInt32(height), rowsPerStrip: UInt32(rowsPerStrip), compression: 8,
            strips: UInt32(strips), offsets: UInt32(offsetsAt), counts: UInt32(countsAt))
        return bytes + directory(entries, next: 0)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
