/// Makes an EXIF block agree with an orientation, for encoders that write EXIF.
///
/// When IFD0 has an orientation tag (SHORT, count 1), its value is patched in place and everything
/// else is kept. When it has none, the block already means `.up`: it is kept as it is for `.up`,
/// and replaced by a minimal block holding only the orientation otherwise (adding an entry to an
/// existing IFD would mean moving every offset after it; the other tags are dropped instead).
enum EXIFOrientationWriter {
    /// The block to write for `exif` (may be nil) and `orientation`, or nil when nothing is needed.
    static func block(_ exif: [UInt8]?, orientation: Orientation) -> [UInt8]? {
        if let exif, let entry = EXIFReader.orientationEntry(in: exif) {
            var patched = exif
            let offset = entry.valueOffset
            let value = UInt16(orientation.rawValue)
            let bigEndian = !entry.littleEndian
            patched[offset] = UInt8(truncatingIfNeeded: bigEndian ? value >> 8 : value)
            patched[offset + 1] = UInt8(truncatingIfNeeded: bigEndian ? value : value >> 8)
            return patched
        }
        if orientation == .up { return exif }
        return minimalBlock(orientation: orientation)
    }

    /// A little-endian TIFF block whose IFD0 holds only the orientation tag.
    static func minimalBlock(orientation: Orientation) -> [UInt8] {
        let header: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        let entry: [UInt8] = [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation.rawValue), 0, 0, 0]
        return header + [1, 0] + entry + [0, 0, 0, 0]
    }
}
