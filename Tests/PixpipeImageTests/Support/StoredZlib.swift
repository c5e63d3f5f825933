/// zlib streams made of stored (uncompressed) deflate blocks, so a test controls exactly how many
/// compressed bytes carry how much data.
enum StoredZlib {
    /// The largest payload of one stored block.
    static let blockCapacity = 65535

    /// A zlib stream (RFC 1950) holding `data` in stored blocks, with its Adler-32.
    static func stream(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + blockCapacity)
            let length = end - start
            let isFinal: UInt8 = end == data.count ? 1 : 0
            // BFINAL then BTYPE 00 in the first byte; LEN and its complement, little-endian.
            stream += [isFinal, UInt8(length & 0xFF), UInt8(length >> 8)]
            stream += [UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        return stream + PNGBytes.bigEndian(adler32(data))
    }

    /// The Adler-32 checksum zlib puts after the data.
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var (low, high): (UInt32, UInt32) = (1, 0)
        for byte in data {
            low = (low + UInt32(byte)) % 65521
            high = (high + low) % 65521
        }
        return high << 16 | low
    }
}
