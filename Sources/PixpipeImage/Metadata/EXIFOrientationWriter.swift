/// Makes an EXIF block agree with an orientation, for encoders that write EXIF.
///
/// When IFD0 has an orientation tag (SHORT, count 1), its value is patched in place and everything
/// else is kept. When it has none, the block already means `.up`: it is kept as it is for `.up`,
/// and replaced by a minimal block holding only the orientation otherwise (adding an entry to an
/// existing IFD would mean moving every offset after it; the other tags are dropped instead).
public enum EXIFOrientationWriter {
    /// The block to write for `exif` (may be nil) and `orientation`, or nil when nothing is needed.
    public static func block(_ exif: [UInt8]?, orientation: Orientation) -> [UInt8]? {
        if let exif, let offset = orientationValueOffset(in: exif) {
            var patched = exif
            let value = UInt16(orientation.rawValue)
            let bigEndian = exif[0] == 0x4D
            patched[offset] = UInt8(truncatingIfNeeded: bigEndian ? value >> 8 : value)
            patched[offset + 1] = UInt8(truncatingIfNeeded: bigEndian ? value : value >> 8)
            return patched
        }
        if orientation == .up { return exif }
        return minimalBlock(orientation: orientation)
    }

    /// A little-endian TIFF block whose IFD0 holds only the orientation tag.
    public static func minimalBlock(orientation: Orientation) -> [UInt8] {
        let header: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        let entry: [UInt8] = [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation.rawValue), 0, 0, 0]
        return header + [1, 0] + entry + [0, 0, 0, 0]
    }

    /// The offset of the orientation entry's value field in IFD0, if the tag is there as SHORT x 1.
    static func orientationValueOffset(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let first = Int(bytes[offset])
            let second = Int(bytes[offset + 1])
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            guard u16(at + 2) == 3, u32(at + 4) == 1, at + 10 <= bytes.count else { return nil }
            return at + 8
        }
        return nil
    }
}
