import Foundation

/// Bodies that say which key and version they belong to and can be checked byte for byte, for tests of a
/// cache shared between processes: a reader that gets a body can prove it is exactly one that some writer
/// stored for that key, and not a torn or foreign one.
///
/// ```swift
/// let body = CacheTestPayload.body(key: "k7", version: 3, size: 10_000)
/// CacheTestPayload.isValid(body, for: "k7")   // true; false for any other key or any changed byte
/// ```
///
/// A body is the line `KEY VERSION\n` followed by bytes drawn from a ``SeededGenerator`` seeded by both.
public enum CacheTestPayload {
    /// A body of about `size` bytes for `key` (which must not contain spaces or newlines) at `version`.
    public static func body(key: String, version: UInt64, size: Int) -> Data {
        let prefix = Data("\(key) \(version)\n".utf8)
        return prefix + filler(key: key, version: version, count: max(0, size - prefix.count))
    }

    /// Whether `data` is exactly a body that ``body(key:version:size:)`` makes for `key`.
    public static func isValid(_ data: Data, for key: String) -> Bool {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        let line = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard line.count == 2, line[0] == key, let version = UInt64(line[1]) else { return false }
        let rest = data[(newline + 1)...]
        return rest.elementsEqual(filler(key: key, version: version, count: rest.count))
    }

    private static func filler(key: String, version: UInt64, count: Int) -> Data {
        // FNV-1a of the key, mixed with the version.
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { seed = (seed ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        var generator = SeededGenerator(seed: seed ^ version &* 0x9E37_79B9_7F4A_7C15)
        // Whole 64-bit words, stored in little-endian order, then the tail: a word at a time keeps debug builds
        // (which the tests run) fast enough to make megabytes.
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset + 8 <= count {
                raw.storeBytes(of: generator.next().littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            var last = generator.next()
            while offset < count {
                raw[offset] = UInt8(truncatingIfNeeded: last)
                last >>= 8
                offset += 1
            }
        }
        return Data(bytes)
    }
}
