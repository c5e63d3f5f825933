import Foundation

/// SHA-256 (FIPS 180-4), in Swift because Linux has no CryptoKit and the package takes no dependencies.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Data("abc".utf8))
/// let hex = hasher.finalize().hexString   // "ba7816bf..."
/// let once = SHA256.hash(Data("abc".utf8))
/// ```
///
/// Blocks of 64 bytes are compressed straight from the caller's buffer with `UInt32` arithmetic; only a
/// partial block is copied into a fixed 64-byte buffer, so hashing allocates nothing per byte.
package struct SHA256: Sendable {
    /// A finished 32-byte digest.
    package struct Digest: Sendable, Hashable {
        /// The 32 bytes, most significant first.
        package let bytes: [UInt8]

        /// Lowercase hexadecimal, 64 characters.
        package var hexString: String {
            let digits = Array("0123456789abcdef".utf8)
            var characters = [UInt8]()
            characters.reserveCapacity(64)
            for byte in bytes {
                characters.append(digits[Int(byte >> 4)])
                characters.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: characters, as: UTF8.self)
        }

        /// The first 8 bytes read as a big-endian integer (used for sharding and compact sets of seen URLs).
        package var prefix64: UInt64 {
            bytes.prefix(8).reduce(0) { ($0 << 8) | UInt64($1) }
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an unfinished block; only the first `pendingCount` are meaningful.
    private var pending = [UInt8](repeating: 0, count: 64)
    private var pendingCount = 0
    private var totalBytes: UInt64 = 0

    /// A hasher with the standard initial state.
    package init() {}

    /// The digest of `data` in one call.
    package static func hash<Bytes: DataProtocol>(_ data: Bytes) -> Digest {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// Feeds more bytes.
    package mutating func update<Bytes: DataProtocol>(_ data: Bytes) {
        for region in data.regions {
            region.withUnsafeBytes { update(bytes: $0) }
        }
    }

    /// Feeds the bytes of a raw buffer.
    package mutating func update(bytes: UnsafeRawBufferPointer) {
        totalBytes &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let taken = min(64 - pendingCount, bytes.count)
            for index in 0..<taken { pending[pendingCount + index] = bytes[index] }
            pendingCount += taken
            offset = taken
            guard pendingCount == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0) }
            pendingCount = 0
        }
        while bytes.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        for index in offset..<bytes.count {
            pending[pendingCount] = bytes[index]
            pendingCount += 1
        }
    }

    /// Pads, processes the last block(s), and returns the digest.
    package mutating func finalize() -> Digest {
        let bitLength = totalBytes &* 8
        var tail: [UInt8] = [0x80]
        let padding = (64 + 56 - (pendingCount + 1) % 64) % 64
        tail.append(contentsOf: repeatElement(0, count: padding))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        let savedTotal = totalBytes
        tail.withUnsafeBytes { update(bytes: $0) }
        totalBytes = savedTotal
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for word in words {
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word))
        }
        return Digest(bytes: bytes)
    }

    /// One 64-byte block through the 64 rounds.
    ///
    /// The message words are loaded big-endian straight from the block, the schedule lives in a 64-word
    /// scratch buffer on the stack, and the working variables stay in registers: about twice the speed of a
    /// byte-at-a-time version.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            guard let words = schedule.baseAddress, let bytes = block.baseAddress else { return }
            for index in 0..<16 {
                words[index] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
            }
            for index in 16..<64 {
                let w15 = words[index &- 15]
                let w2 = words[index &- 2]
                let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                words[index] = words[index &- 16] &+ s0 &+ words[index &- 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                guard let k = constants.baseAddress else { return }
                // Eight rounds per pass with the variables' roles rotated by name instead of by copying.
                for index in stride(from: 0, to: 64, by: 8) {
                    Self.round(a, b, c, &d, e, f, g, &h, k[index] &+ words[index])
                    Self.round(h, a, b, &c, d, e, f, &g, k[index &+ 1] &+ words[index &+ 1])
                    Self.round(g, h, a, &b, c, d, e, &f, k[index &+ 2] &+ words[index &+ 2])
                    Self.round(f, g, h, &a, b, c, d, &e, k[index &+ 3] &+ words[index &+ 3])
                    Self.round(e, f, g, &h, a, b, c, &d, k[index &+ 4] &+ words[index &+ 4])
                    Self.round(d, e, f, &g, h, a, b, &c, k[index &+ 5] &+ words[index &+ 5])
                    Self.round(c, d, e, &f, g, h, a, &b, k[index &+ 6] &+ words[index &+ 6])
                    Self.round(b, c, d, &e, f, g, h, &a, k[index &+ 7] &+ words[index &+ 7])
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                state.7 &+ h
            )
        }
    }
}

extension SHA256 {
    /// One round: `d` and `h` are the two working variables it changes; `input` is the round constant plus
    /// the message word.
    @inline(__always)
    fileprivate static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ input: UInt32
    ) {
        let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
        let choice = g ^ (e & (f ^ g))
        let temp1 = h &+ s1 &+ choice &+ input
        let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
        let majority = (a & b) | (c & (a | b))
        d = d &+ temp1
        h = temp1 &+ s0 &+ majority
    }
}

extension UInt32 {
    /// The bits rotated right by `count` (0 < count < 32).
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
