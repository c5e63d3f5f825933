/// Reads the few EXIF facts this package uses from a TIFF-structured EXIF block.
///
/// Only IFD0 is read, each offset is bounds-checked, and no offset is followed twice, so a
/// malformed or cyclic block cannot crash or hang the reader: it returns `nil` instead.
package enum EXIFReader {
    /// The orientation tag (0x0112) of IFD0, or `nil` when absent or malformed.
    ///
    /// `tiff` starts at the byte-order mark (`II*\0` or `MM\0*`), as in a PNG `eXIf` chunk or
    /// after the `Exif\0\0` prefix of a JPEG APP1 segment.
    package static func orientation(tiff: some Collection<UInt8>) -> Orientation? {
        let bytes = Array(tiff)
        guard let entry = orientationEntry(in: bytes) else { return nil }
        let first = Int(bytes[entry.valueOffset])
        let second = Int(bytes[entry.valueOffset + 1])
        return Orientation(rawValue: entry.littleEndian ? first | second << 8 : first << 8 | second)
    }

    /// The TIFF block inside a JPEG APP1 payload (after its `Exif\0\0` prefix), or `nil` if it is not EXIF.
    package static func tiffBlock(app1Payload payload: some Collection<UInt8>) -> [UInt8]? {
        let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
        guard payload.starts(with: prefix) else { return nil }
        return Array(payload.dropFirst(prefix.count))
    }

    /// Where IFD0's orientation entry keeps its value (SHORT, count 1), and the block's byte order.
    ///
    /// Shared by the reader and by ``EXIFOrientationWriter``, which patches the value in place.
    static func orientationEntry(in bytes: [UInt8]) -> (valueOffset: Int, littleEndian: Bool)? {
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
            return (at + 8, littleEndian)
        }
        return nil
    }
}
