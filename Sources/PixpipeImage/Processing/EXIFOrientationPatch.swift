/// Rewrites the orientation tag of a TIFF-structured EXIF block once the pixels have been turned upright.
enum EXIFOrientationPatch {
    /// `tiff` with the IFD0 orientation tag (0x0112) set to 1, or unchanged when it has no such tag.
    ///
    /// Only the two value bytes change, so every offset in the block stays valid. A malformed block is
    /// returned as it is: `EXIFReader` reads no orientation from it either.
    static func settingOrientationToUp(in tiff: [UInt8]) -> [UInt8] {
        guard tiff.count >= 8 else { return tiff }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return tiff
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let first = Int(tiff[offset])
            let second = Int(tiff[offset + 1])
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return tiff }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return tiff }
            guard tag == 0x0112 else { continue }
            guard u16(at + 2) == 3, at + 10 <= tiff.count else { return tiff }
            var patched = tiff
            patched[at + 8] = littleEndian ? 1 : 0
            patched[at + 9] = littleEndian ? 0 : 1
            return patched
        }
        return tiff
    }
}
