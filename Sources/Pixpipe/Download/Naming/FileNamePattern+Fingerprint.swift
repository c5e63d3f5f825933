extension FileNamePattern {
    /// The 8-byte fingerprint of ``collisionKey``, `SHA256.prefix64(ofUTF8: collisionKey)`, computed without
    /// making the key's `String`s when every literal is ASCII (lowercased byte by byte, as `lowercased()`
    /// does ASCII): naming claims one per item of a list, and the key's strings (one per segment, lowercased,
    /// then joined) were most of an item's naming.
    var collisionFingerprint: UInt64 {
        var length = 0
        for segment in segments {
            switch segment {
            case .literal(let text):
                guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return SHA256.prefix64(ofUTF8: collisionKey) }
                length += text.utf8.count
            case .sha256: length += Self.sha256Marker.count
            case .ext: length += Self.extMarker.count
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, length)) { key in
            var end = 0
            func append(_ byte: UInt8) {
                key[end] = byte
                end += 1
            }
            for segment in segments {
                switch segment {
                case .literal(let text):
                    for byte in text.utf8 { append(byte &- 0x41 < 26 ? byte | 0x20 : byte) }
                case .sha256: Self.sha256Marker.forEach(append)
                case .ext: Self.extMarker.forEach(append)
                }
            }
            return SHA256.prefix64(of: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: key[..<end])))
        }
    }

    /// What ``collisionKey`` writes for `{sha256}` and for `{ext}`.
    private static let sha256Marker = Array("\u{1}sha256".utf8)
    private static let extMarker = Array("\u{1}ext".utf8)
}
