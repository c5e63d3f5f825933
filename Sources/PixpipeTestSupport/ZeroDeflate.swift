/// Compressed streams of nothing but zero bytes, built without zlib: decompression bombs for tests.
///
/// One fixed-Huffman deflate block holds a literal zero and then back-references of 258 bytes at
/// distance 1, 13 bits each, so `zeroBytes` zeros cost about `zeroBytes / 159` bytes: a 1 GiB body is
/// 6.5 MB on the wire. The zlib and gzip wrappers carry correct checksums, so a stream that is read to
/// the end is valid, and a decoder that stops early does so because of its own limit.
///
/// ```swift
/// let body = ZeroDeflate.gzip(zeroBytes: 1 << 30)
/// server.route("/bomb", .respond(headers: ["Content-Encoding": "gzip"], body: body))
/// ```
public enum ZeroDeflate {
    /// A raw deflate stream (RFC 1951) that inflates to `zeroBytes` zeros (at least 1).
    public static func raw(zeroBytes: Int) -> [UInt8] {
        let count = max(1, zeroBytes)
        var writer = BitWriter()
        writer.write(bits: 1, count: 1)  // BFINAL
        writer.write(bits: 1, count: 2)  // BTYPE 01: fixed Huffman codes
        writer.writeCode(0x30, count: 8)  // literal 0
        // Length symbol 285 (258 bytes, no extra bits), then distance code 0 (distance 1): 13 bits.
        let match = BitWriter.reversed(0xC5, count: 8) | BitWriter.reversed(0, count: 5) << 8
        var remaining = count - 1
        while remaining >= 258 {
            writer.write(bits: match, count: 13)
            remaining -= 258
        }
        for _ in 0..<remaining { writer.writeCode(0x30, count: 8) }
        writer.writeCode(0, count: 7)  // end of block (symbol 256)
        return writer.finished
    }

    /// A zlib stream (RFC 1950), as in a PNG IDAT, zTXt, iTXt or iCCP chunk.
    public static func zlib(zeroBytes: Int) -> [UInt8] {
        let count = max(1, zeroBytes)
        // Adler-32 of zeros: the byte sum stays 1, and the second sum adds 1 per byte.
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x01] + raw(zeroBytes: count) + bigEndian(adler)
    }

    /// A gzip member (RFC 1952), as served with `Content-Encoding: gzip`.
    public static func gzip(zeroBytes: Int) -> [UInt8] {
        let count = max(1, zeroBytes)
        let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        return header + raw(zeroBytes: count) + littleEndian(crc32OfZeros(count))
            + littleEndian(UInt32(truncatingIfNeeded: count))
    }

    /// CRC-32 of `count` zero bytes in O(log count): one zero byte is a linear map of the CRC register,
    /// so `count` of them are that map raised to the power `count`, by repeated squaring.
    static func crc32OfZeros(_ count: Int) -> UInt32 {
        // The map as 32 columns: column i is the register after one zero byte from the register 1 << i.
        var power = (0..<32).map { shiftZeroByte(UInt32(1) << $0) }
        var register: UInt32 = 0xFFFF_FFFF
        var exponent = count
        while exponent > 0 {
            if exponent & 1 == 1 { register = apply(power, to: register) }
            power = power.map { apply(power, to: $0) }
            exponent >>= 1
        }
        return register ^ 0xFFFF_FFFF
    }

    /// The reflected CRC-32 register after one zero byte.
    private static func shiftZeroByte(_ register: UInt32) -> UInt32 {
        var value = register
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// A linear map over GF(2), given by its columns, applied to `vector`.
    private static func apply(_ columns: [UInt32], to vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<32 where vector >> bit & 1 == 1 { result ^= columns[bit] }
        return result
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] { bigEndian(value).reversed() }

    /// Packs bits least-significant first, as deflate does.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var pending: UInt32 = 0
        private var pendingCount = 0

        /// Appends the `count` low bits of `bits`, least significant first (headers, extra bits).
        mutating func write(bits: UInt32, count: Int) {
            pending |= bits << pendingCount
            pendingCount += count
            while pendingCount >= 8 {
                bytes.append(UInt8(pending & 0xFF))
                pending >>= 8
                pendingCount -= 8
            }
        }

        /// Appends a Huffman code, which deflate stores most significant bit first.
        mutating func writeCode(_ code: UInt32, count: Int) {
            write(bits: Self.reversed(code, count: count), count: count)
        }

        /// The `count` low bits of `code` in reverse order.
        static func reversed(_ code: UInt32, count: Int) -> UInt32 {
            var result: UInt32 = 0
            for bit in 0..<count { result |= (code >> bit & 1) << (count - 1 - bit) }
            return result
        }

        /// The bytes written, the last partial byte included.
        var finished: [UInt8] { pendingCount > 0 ? bytes + [UInt8(pending & 0xFF)] : bytes }
    }
}
