/// Removes the GPS (location) directory from an EXIF block, keeping every other tag where it was.
///
/// The GPS IFD's entries and the values they point to are overwritten with zeros, and the GPS pointer
/// (tag 0x8825) is taken out of IFD0 by moving the entries after it up; every offset in the block is
/// counted from the TIFF header, so nothing else moves. A block it cannot read safely (bad offsets, a
/// pointer of the wrong type) is returned as `nil`, since keeping it could keep the location.
package enum EXIFLocationRemover {
    /// The GPS IFD pointer tag.
    static let gpsPointerTag = 0x8825

    /// Whether IFD0 of `exif` points to a GPS directory.
    package static func hasLocation(_ exif: [UInt8]) -> Bool {
        guard let reader = Reader(exif), let ifd0 = reader.u32(4) else { return false }
        return reader.entryIndex(of: gpsPointerTag, ifd: ifd0) != nil
    }

    /// `exif` without its GPS directory: unchanged when it has none, `nil` when it cannot be read.
    package static func removingLocation(from exif: [UInt8]) -> [UInt8]? {
        guard let reader = Reader(exif), let ifd0 = reader.u32(4), let count = reader.u16(ifd0) else { return nil }
        guard let index = reader.entryIndex(of: gpsPointerTag, ifd: ifd0) else { return exif }
        var bytes = exif
        let entry = ifd0 + 2 + 12 * index
        if let gps = reader.u32(entry + 8), let gpsCount = reader.u16(gps), gps + 2 + 12 * gpsCount <= exif.count {
            for gpsIndex in 0..<gpsCount {
                let gpsEntry = gps + 2 + 12 * gpsIndex
                // Values over 4 bytes sit elsewhere in the block, at the offset the entry holds.
                if let size = reader.valueSize(at: gpsEntry), size > 4, let offset = reader.u32(gpsEntry + 8),
                    offset + size <= exif.count
                {
                    bytes.replaceSubrange(offset..<offset + size, with: repeatElement(0, count: size))
                }
            }
            bytes.replaceSubrange(gps..<gps + 2 + 12 * gpsCount, with: repeatElement(0, count: 2 + 12 * gpsCount))
        }
        // IFD0 loses the pointer: later entries and the next-IFD offset move up one entry; the last
        // 12 bytes, now unused, become zeros.
        let end = ifd0 + 2 + 12 * count + 4
        guard end <= exif.count else { return nil }
        let tail = Array(bytes[(entry + 12)..<end])
        bytes.replaceSubrange(entry..<(entry + tail.count), with: tail)
        bytes.replaceSubrange((end - 12)..<end, with: repeatElement(0, count: 12))
        let newCount = count - 1
        bytes[ifd0] = UInt8(truncatingIfNeeded: reader.littleEndian ? newCount : newCount >> 8)
        bytes[ifd0 + 1] = UInt8(truncatingIfNeeded: reader.littleEndian ? newCount >> 8 : newCount)
        return bytes
    }

    /// Bounds-checked reads of a TIFF-structured block in its byte order.
    private struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 8 else { return nil }
            switch (bytes[0], bytes[1]) {
            case (0x49, 0x49): littleEndian = true
            case (0x4D, 0x4D): littleEndian = false
            default: return nil
            }
            self.bytes = bytes
        }

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let (first, second) = (Int(bytes[offset]), Int(bytes[offset + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }

        func u32(_ offset: Int) -> Int? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return littleEndian ? first | second << 16 : first << 16 | second
        }

        /// The index of the entry with `tag` in the IFD at `ifd`, when the whole IFD lies in the block.
        func entryIndex(of tag: Int, ifd: Int) -> Int? {
            guard let count = u16(ifd), ifd + 2 + 12 * count + 4 <= bytes.count else { return nil }
            return (0..<count).first { u16(ifd + 2 + 12 * $0) == tag }
        }

        /// The byte size of the value of the entry at `entry` (its type's size times its count).
        func valueSize(at entry: Int) -> Int? {
            guard let type = u16(entry + 2), let count = u32(entry + 4) else { return nil }
            let unit: Int
            switch type {
            case 1, 2, 6, 7: unit = 1
            case 3, 8: unit = 2
            case 4, 9, 11: unit = 4
            case 5, 10, 12: unit = 8
            default: return nil
            }
            let (size, overflow) = unit.multipliedReportingOverflow(by: count)
            return overflow ? nil : size
        }
    }
}

extension ImageMetadata {
    /// Whether the EXIF block holds a GPS (location) directory.
    public var hasLocation: Bool { exif.map(EXIFLocationRemover.hasLocation) ?? false }

    /// Drops the GPS directory from the EXIF block, keeping the other tags; an EXIF block too damaged to
    /// edit safely is dropped whole, since keeping it could keep the location.
    public mutating func removeLocation() {
        guard let exif else { return }
        self.exif = EXIFLocationRemover.removingLocation(from: exif)
    }
}
