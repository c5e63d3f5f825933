/// The little of ISO-BMFF the codec reads itself: the `ftyp` brands and whether the top-level boxes are whole.
enum AVIFBoxes {
    /// Whether `prefix` starts with an `ftyp` box whose major or a compatible brand is `avif` or `avis`.
    static func hasAVIFBrand(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 12, prefix[4...7].elementsEqual("ftyp".utf8) else { return false }
        let size = Int(bigEndian32(prefix, at: 0))
        guard size >= 16 else { return false }
        let brands = [8] + Array(stride(from: 16, to: min(size, prefix.count) - 3, by: 4))
        return brands.contains { offset in
            let brand = prefix[offset..<(offset + 4)]
            return brand.elementsEqual("avif".utf8) || brand.elementsEqual("avis".utf8)
        }
    }

    /// Whether the last top-level box declares an end past the end of `bytes` (the file was cut).
    static func lastBoxIsCut(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while bytes.count - offset >= 8 {
            var size = UInt64(bigEndian32(bytes, at: offset))
            if size == 1 {
                guard bytes.count - offset >= 16 else { return true }
                size = UInt64(bigEndian32(bytes, at: offset + 8)) << 32 | UInt64(bigEndian32(bytes, at: offset + 12))
            } else if size == 0 {
                return false  // the box runs to the end of the file
            }
            guard size >= 8, size <= UInt64(bytes.count - offset) else { return true }
            offset += Int(size)
        }
        return offset != bytes.count
    }

    /// Where the top-level boxes say the file ends (past `bytes.count` when the last box was cut).
    static func declaredLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while bytes.count - offset >= 8 {
            let size = Int(bigEndian32(bytes, at: offset))
            guard size >= 8 else { return bytes.count }  // 64-bit and to-the-end sizes: as long as it is
            if size > bytes.count - offset { return offset + size }
            offset += size
        }
        return bytes.count
    }

    /// The sample count of the first `stsz` box (a track's frame count), found by its type bytes; only
    /// used to name the count when libavif refused a sequence over the frame limit.
    static func declaredSampleCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let tag = Array("stsz".utf8)
        var index = 4
        while index + 16 <= bytes.count {
            if bytes[index] == tag[0], bytes[(index + 1)..<(index + 4)].elementsEqual(tag[1...]) {
                // type, version and flags, sample size, sample count
                return Int(bigEndian32(bytes, at: index + 12))
            }
            index += 1
        }
        return nil
    }

    private static func bigEndian32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> UInt32
    where Bytes.Index == Int {
        let start = bytes.startIndex + offset
        return (start..<(start + 4)).reduce(0) { $0 << 8 | UInt32(bytes[$1]) }
    }
}
