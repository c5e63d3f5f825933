/// Hand-built PNG bytes for malformed-input tests: chunk walking and chunk writing with real CRCs.
enum PNGBytes {
    /// The eight-byte PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk in a PNG file: its type and where it starts and ends (length field to CRC, inclusive).
    struct Chunk {
        /// The four-letter chunk type.
        var type: String
        /// Offset of the chunk's length field.
        var start: Int
        /// Offset just past the chunk's CRC.
        var end: Int
        /// Offset of the chunk's data.
        var dataStart: Int { start + 8 }
    }

    /// The chunks of a well-formed PNG, in file order.
    static func chunks(of png: [UInt8]) -> [Chunk] {
        var result: [Chunk] = []
        var offset = signature.count
        while offset + 8 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= png.count else { break }
            result.append(Chunk(type: type, start: offset, end: end))
            offset = end
        }
        return result
    }

    /// One chunk: length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// An IHDR chunk.
    static func ihdr(
        width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 0, interlaced: Bool = false
    ) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
    }

    /// `value` as four big-endian bytes.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 PNG puts after each chunk (polynomial 0xEDB88320, reflected).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
