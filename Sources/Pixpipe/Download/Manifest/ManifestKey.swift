import Foundation

/// The keys of a manifest record, declared once, in the order they are written: ``ManifestRecord``'s
/// `Codable` keys, the order and names of its hand-built JSON line (``ManifestRecord/jsonLine``, whose
/// switch over these cases the compiler holds complete) and the fast reader's key dispatch
/// (``ManifestLine``, the same) all come from here.
///
/// A new field is a property of ``ManifestRecord``, a case here (last, so older keys never move), and the
/// cases the compiler then asks for in the writer and the reader.
enum ManifestKey: String, CaseIterable, CodingKey {
    case url, name, status, httpStatus, bytes, sha256, width, height, format, attempts, elapsed, error
    // Added later, after all the others.
    case errorKind, warnings, etag, lastModified, recipe
    // The archive holding the item, for archive outputs.
    case archive

    /// The key's own bit in a set of keys seen (its position in the declaration).
    var bit: UInt32 { Self.bits[self] ?? 0 }

    /// The key whose name is `text`, exactly, and its ``bit``; `nil` for any other text.
    ///
    /// By the first byte, then one comparison of bytes with each key starting with it (one to four): a line
    /// has a dozen keys, and comparing each with every name in turn was a tenth of reading it.
    static func matching(_ text: UnsafeRawBufferPointer) -> (key: ManifestKey, bit: UInt32)? {
        guard let first = text.first, let start = text.baseAddress else { return nil }
        for candidate in byFirstByte[Int(first)] where candidate.name.count == text.count {
            let equal = candidate.name.withUnsafeBytes { memcmp($0.baseAddress!, start, text.count) == 0 }
            if equal { return (candidate.key, candidate.bit) }
        }
        return nil
    }

    /// Each key's bit, from its position.
    private static let bits: [ManifestKey: UInt32] = Dictionary(
        uniqueKeysWithValues: allCases.enumerated().map { ($1, UInt32(1) << UInt32($0)) })

    /// The keys by the first byte of their names, with their names' bytes and bits.
    private static let byFirstByte: [[(name: [UInt8], key: ManifestKey, bit: UInt32)]] = {
        var table = [[(name: [UInt8], key: ManifestKey, bit: UInt32)]](repeating: [], count: 256)
        for (position, key) in allCases.enumerated() {
            let name = Array(key.rawValue.utf8)
            table[Int(name[0])].append((name, key, UInt32(1) << UInt32(position)))
        }
        return table
    }()
}
