/// A page's EXIF as the TIFF-structured block ``ImageMetadata/exif`` holds: built from the page's own
/// directory, in the file's byte order, with an IFD0 of the Orientation tag and the pointers to copies of
/// the page's EXIF and GPS directories.
///
/// Each copied entry's values are copied with it (and their offsets moved); entries that point to further
/// directories (the Interoperability IFD), of unknown types, or whose values lie outside the file are
/// dropped. BigTIFF files (whose entries are wider) give the minimal block of the orientation only.
enum TIFFEXIFBlock {
    /// The most bytes copied for one block: EXIF in a TIFF is a few kilobytes.
    static let byteBudget = 1 << 20

    /// The block of page `page` of `bytes`, or `nil` when the page has no EXIF or GPS directory (the
    /// metadata then keeps the minimal block of the Orientation tag, if any).
    static func block(_ bytes: UnsafeRawBufferPointer, page: Int, orientation: Orientation) -> [UInt8]? {
        guard let structure = TIFFStructure(bytes, limit: page), page < structure.pages.count,
            !structure.isBigTIFF
        else { return nil }
        let reader = Reader(bytes: bytes, bigEndian: structure.bigEndian)
        let entries = reader.entries(at: structure.pages[page].offset)
        let pointers = entries.filter { ($0.tag == 34665 || $0.tag == 34853) && $0.count == 1 }
        guard !pointers.isEmpty else { return nil }
        var block = Writer(bigEndian: structure.bigEndian)
        block.bytes = structure.bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        block.append32(8)
        // IFD0: the orientation and one pointer per directory, patched once each directory is written.
        var ifd0: [(tag: UInt16, type: UInt16, value: UInt32)] = [(274, 3, UInt32(orientation.rawValue))]
        ifd0 += pointers.map { ($0.tag, 4, 0) }
        block.append16(UInt16(ifd0.count))
        var pointerSlots: [Int] = []
        for entry in ifd0 {
            block.append16(entry.tag)
            block.append16(entry.type)
            block.append32(1)
            if entry.tag == 274 {
                block.append16(UInt16(entry.value))
                block.append16(0)
            } else {
                pointerSlots.append(block.bytes.count)
                block.append32(0)
            }
        }
        block.append32(0)
        for (slot, pointer) in zip(pointerSlots, pointers) {
            block.patch32(at: slot, UInt32(block.bytes.count))
            block.copyDirectory(reader, at: UInt64(pointer.value))
            guard block.bytes.count <= byteBudget else { return nil }
        }
        return block.bytes
    }

    /// One classic directory entry as stored: the value field raw (four bytes).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The value field read as a LONG (an offset, or a single LONG value).
        var value: UInt32
        /// The value field's four bytes, as stored.
        var field: [UInt8]
    }

    /// Bytes per value of each TIFF field type, `nil` for unknown types.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let bigEndian: Bool

        func value(_ offset: UInt64, size: Int) -> UInt32? {
            guard offset <= UInt64(bytes.count), UInt64(bytes.count) - offset >= UInt64(size) else { return nil }
            var result: UInt32 = 0
            for index in 0..<size {
                result = result << 8 | UInt32(bytes[Int(offset) + (bigEndian ? index : size - 1 - index)])
            }
            return result
        }

        func slice(_ offset: UInt64, count: Int) -> [UInt8]? {
            guard offset <= UInt64(bytes.count), UInt64(bytes.count) - offset >= UInt64(count) else { return nil }
            return Array(bytes[Int(offset)..<(Int(offset) + count)])
        }

        /// The entries of the classic directory at `offset` (none when it is outside the file).
        func entries(at offset: UInt64) -> [Entry] {
            guard let count = value(offset, size: 2), count < 4096 else { return [] }
            return (0..<UInt64(count)).compactMap { index in
                let at = offset + 2 + index * 12
                guard let tag = value(at, size: 2), let type = value(at + 2, size: 2),
                    let count = value(at + 4, size: 4), let field = slice(at + 8, count: 4),
                    let long = value(at + 8, size: 4)
                else { return nil }
                return Entry(tag: UInt16(tag), type: UInt16(type), count: count, value: long, field: field)
            }
        }
    }

    private struct Writer {
        let bigEndian: Bool
        var bytes: [UInt8] = []

        mutating func append16(_ value: UInt16) {
            bytes += bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }

        mutating func append32(_ value: UInt32) {
            let little = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            bytes += bigEndian ? little.reversed() : little
        }

        mutating func patch32(at offset: Int, _ value: UInt32) {
            let little = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            bytes.replaceSubrange(offset..<(offset + 4), with: bigEndian ? little.reversed() : little)
        }

        /// Appends a copy of the directory at `offset`, then the values of its entries that do not fit in
        /// the value field.
        mutating func copyDirectory(_ reader: Reader, at offset: UInt64) {
            let kept = reader.entries(at: offset).filter { entry in
                guard entry.tag != 40965, let size = TIFFEXIFBlock.typeSize(entry.type) else { return false }
                let length = Int(entry.count) * size
                return length <= 4
                    || (length <= TIFFEXIFBlock.byteBudget && reader.slice(UInt64(entry.value), count: length) != nil)
            }
            append16(UInt16(kept.count))
            let dataStart = bytes.count + kept.count * 12 + 4
            var data: [UInt8] = []
            for entry in kept {
                append16(entry.tag)
                append16(entry.type)
                append32(entry.count)
                let length = Int(entry.count) * (TIFFEXIFBlock.typeSize(entry.type) ?? 1)
                if length <= 4 {
                    bytes += entry.field
                } else {
                    append32(UInt32(dataStart + data.count))
                    data += reader.slice(UInt64(entry.value), count: length) ?? []
                    // Values start on a word boundary.
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            append32(0)
            bytes += data
        }
    }
}
