/// Rewrites the orientation tag of an EXIF block so a written file agrees with the image's orientation.
///
/// After ``Image/applyingOrientation()`` the pixels are upright and the orientation is `.up`, but the
/// EXIF block copied from the source still names the old orientation; written unchanged, it would
/// make viewers turn the picture a second time.
enum EXIFOrientationPatch {
    /// `tiff` with IFD0's orientation tag set to `orientation`; unchanged when the tag is absent or malformed.
    static func setting(_ orientation: Orientation, in tiff: [UInt8]) -> [UInt8] {
        guard let offset = valueOffset(in: tiff) else { return tiff }
        var patched = tiff
        let value = UInt16(orientation.rawValue)
        let littleEndian = tiff[0] == 0x49
        patched[offset] = UInt8(truncatingIfNeeded: littleEndian ? value : value >> 8)
        patched[offset + 1] = UInt8(truncatingIfNeeded: littleEndian ? value >> 8 : value)
        return patched
    }

    /// Where the orientation entry's SHORT value sits, with every offset bounds-checked.
    private static func valueOffset(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            let first = Int(bytes[at]), second = Int(bytes[at + 1])
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else {
                return nil
            }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 { return u16(at + 2) == 3 && u16(at + 8) != nil ? at + 8 : nil }
        }
        return nil
    }
}
