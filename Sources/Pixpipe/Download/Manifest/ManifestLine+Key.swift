import Foundation

extension ManifestLine {
    /// The keys of a record and the JSON type `JSONDecoder` requires of each.
    enum Key: String, CaseIterable {
        case url, name, status, httpStatus, bytes, sha256, width, height, format, attempts, elapsed, error
        case errorKind, warnings, etag, lastModified, recipe

        /// The key's own bit of ``Fields/seen``.
        var bit: UInt32 {
            // A switch, not the key's position in `allCases` (a search per key of every line).
            let position: UInt32 =
                switch self {
                case .url: 0
                case .name: 1
                case .status: 2
                case .httpStatus: 3
                case .bytes: 4
                case .sha256: 5
                case .width: 6
                case .height: 7
                case .format: 8
                case .attempts: 9
                case .elapsed: 10
                case .error: 11
                case .errorKind: 12
                case .warnings: 13
                case .etag: 14
                case .lastModified: 15
                case .recipe: 16
                }
            return 1 << position
        }

        /// The key whose name is `text`, exactly; `nil` for any other text.
        ///
        /// By the first byte, then one comparison of bytes with each key starting with it (one to four): a line
        /// has a dozen keys, and comparing each with the sixteen names in turn was a tenth of reading it.
        static func matching(_ text: UnsafeRawBufferPointer) -> Key? {
            guard let first = text.first, let start = text.baseAddress else { return nil }
            // A static name's bytes against the text's, with no `String` (its UTF-8 view compares slowly).
            func named(_ key: Key, _ name: StaticString) -> Key? {
                name.utf8CodeUnitCount == text.count && memcmp(name.utf8Start, start, text.count) == 0 ? key : nil
            }
            switch first {
            case UInt8(ascii: "u"): return named(.url, "url")
            case UInt8(ascii: "n"): return named(.name, "name")
            case UInt8(ascii: "s"): return named(.status, "status") ?? named(.sha256, "sha256")
            case UInt8(ascii: "h"): return named(.httpStatus, "httpStatus") ?? named(.height, "height")
            case UInt8(ascii: "b"): return named(.bytes, "bytes")
            case UInt8(ascii: "w"): return named(.width, "width") ?? named(.warnings, "warnings")
            case UInt8(ascii: "f"): return named(.format, "format")
            case UInt8(ascii: "a"): return named(.attempts, "attempts")
            case UInt8(ascii: "e"):
                return named(.elapsed, "elapsed") ?? named(.error, "error") ?? named(.errorKind, "errorKind")
                    ?? named(.etag, "etag")
            case UInt8(ascii: "l"): return named(.lastModified, "lastModified")
            case UInt8(ascii: "r"): return named(.recipe, "recipe")
            default: return nil
            }
        }
    }
}
