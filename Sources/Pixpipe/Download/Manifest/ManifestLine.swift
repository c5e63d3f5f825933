import Foundation

/// The fields of one manifest line a resumed batch needs, read by a hand parser of the lines
/// ``ManifestRecord/jsonLine`` writes.
///
/// A resumed run reads every line of the manifest before its first transfer; through `JSONDecoder` that
/// took seconds for 200,000 lines. This parser reads only the strings it needs and checks the rest
/// against the rules `JSONDecoder` applies to a ``ManifestRecord`` (each value's JSON type, the required
/// keys, a known status). A line it is not sure of (an unknown key, a repeated key, a number in a form the
/// writer never uses, invalid UTF-8) gets `nil`, and the caller decodes that line with `JSONDecoder`, so
/// every line parses exactly as it did before, only faster.
struct ManifestLine: Sendable, Equatable {
    /// The record's `url`.
    var url: String
    /// The record's `status`.
    var status: ManifestRecord.Status
    /// The record's `name`.
    var name: String?
    /// The record's `sha256` as the digest it spells, when it is 64 lowercase hex digits; `nil` for anything
    /// else (no hash, or one that never matches a file's digest): all a resumed batch needs of it.
    var sha256: PriorIndex.SHA256Bytes?
    /// The record's `bytes`.
    var bytes: Int?
    /// The record's `errorKind`.
    var errorKind: String?
    /// The record's `etag`.
    var etag: String?
    /// The record's `lastModified`.
    var lastModified: String?
    /// The record's `recipe`.
    var recipe: String?

    /// The same fields of a decoded record.
    init(_ record: ManifestRecord) {
        url = record.url
        status = record.status
        name = record.name
        sha256 = record.sha256.flatMap(PriorIndex.SHA256Bytes.init(hex:))
        bytes = record.bytes
        errorKind = record.errorKind
        etag = record.etag
        lastModified = record.lastModified
        recipe = record.recipe
    }

    /// The fields read by hand; `nil` when the line needs `JSONDecoder`'s judgement.
    init?(bytes: UnsafeRawBufferPointer) {
        var scanner = Scanner(bytes: bytes)
        guard let fields = scanner.object(), scanner.atEndAfterSpace(),
            let url = fields.url, let status = fields.status, fields.hasRequiredNumbers
        else { return nil }
        self.url = url
        self.status = status
        name = fields.name
        sha256 = fields.sha256
        self.bytes = fields.bytes
        errorKind = fields.errorKind
        etag = fields.etag
        lastModified = fields.lastModified
        recipe = fields.recipe
    }

    /// What the scanner found in the object.
    private struct Fields {
        var url: String?
        var status: ManifestRecord.Status?
        var name: String?
        var sha256: PriorIndex.SHA256Bytes?
        var bytes: Int?
        var errorKind: String?
        var etag: String?
        var lastModified: String?
        var recipe: String?
        var seen: UInt32 = 0
        /// `attempts` and `elapsed`, which a record must have.
        var hasRequiredNumbers: Bool { seen & Self.required == Self.required }
        /// The bits of `attempts` and `elapsed`.
        private static let required = ManifestKey.attempts.bit | ManifestKey.elapsed.bit
    }

    /// A cursor over one line's bytes.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D, 0x0A: index += 1
                default: return
                }
            }
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The top-level object's fields, or `nil` when the line is not one this parser vouches for.
        mutating func object() -> Fields? {
            var fields = Fields()
            guard take(UInt8(ascii: "{")) else { return nil }
            if take(UInt8(ascii: "}")) { return fields }
            repeat {
                skipSpace()
                guard let (key, bit) = key(), fields.seen & bit == 0, take(UInt8(ascii: ":")) else { return nil }
                fields.seen |= bit
                guard value(for: key, into: &fields) else { return nil }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? fields : nil
        }

        /// A key of a record (a key with escapes or an unknown key gives `nil`).
        mutating func key() -> (key: ManifestKey, bit: UInt32)? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                guard bytes[end] != UInt8(ascii: "\\") else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            guard let match = ManifestKey.matching(text) else { return nil }
            index = end + 1
            return match
        }

        /// Reads the value of `key`, checking its type; `false` when it is not one `JSONDecoder` accepts.
        mutating func value(for key: ManifestKey, into fields: inout Fields) -> Bool {
            skipSpace()
            switch key {
            case .url, .status:
                // Required and not optional: `null` fails the decoding.
                guard let text = string() else { return false }
                if key == .url {
                    fields.url = text
                } else {
                    guard let status = ManifestRecord.Status(rawValue: text) else { return false }
                    fields.status = status
                }
            case .sha256:
                if null() { return true }
                // Plain hex digits are read as the digest in place, with no `String` made of them.
                if let raw = plainASCIIString() {
                    fields.sha256 = PriorIndex.SHA256Bytes(hexDigits: raw)
                    return true
                }
                guard let text = string() else { return false }
                fields.sha256 = PriorIndex.SHA256Bytes(hex: text)
            case .name, .format, .error, .errorKind, .etag, .lastModified, .recipe, .archive:
                if null() { return true }
                guard let text = string() else { return false }
                switch key {
                case .name: fields.name = text
                case .errorKind: fields.errorKind = text
                case .etag: fields.etag = text
                case .lastModified: fields.lastModified = text
                case .recipe: fields.recipe = text
                default: break
                }
            case .bytes:
                if null() { return true }
                guard let value = integer() else { return false }
                fields.bytes = value
            case .httpStatus, .width, .height:
                return null() || integer() != nil
            case .attempts:
                return integer() != nil
            case .elapsed:
                return number()
            case .warnings:
                if null() { return true }
                guard take(UInt8(ascii: "[")) else { return false }
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    skipSpace()
                    guard string() != nil else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            }
            return true
        }

        mutating func null() -> Bool {
            guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }

        /// A plain integer as the writer writes it (an optional minus and up to 18 digits, no leading zero),
        /// or `nil` for any other form.
        mutating func integer() -> Int? {
            var end = index
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
            let digits = end
            while end < bytes.count, bytes[end] &- 0x30 < 10 { end += 1 }
            let count = end - digits
            guard count > 0, count <= 18, count == 1 || bytes[digits] != 0x30 else { return nil }
            // A fraction or an exponent would make it a number `Int` may refuse: not vouched for.
            if end < bytes.count,
                bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")
            {
                return nil
            }
            // At most 18 digits: the value fits in an `Int`.
            var value = 0
            for position in digits..<end { value = value * 10 + Int(bytes[position] - 0x30) }
            let negative = digits > index
            index = end
            return negative ? -value : value
        }

        /// A JSON number, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, of a size a `Double` holds.
        mutating func number() -> Bool {
            var end = index
            func digits() -> Int {
                let start = end
                while end < bytes.count, bytes[end] &- 0x30 < 10 { end += 1 }
                return end - start
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
            let first = end
            let whole = digits()
            guard (1...20).contains(whole), whole == 1 || bytes[first] != 0x30 else { return false }
            if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                end += 1
                guard digits() > 0 else { return false }
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
                end += 1
                if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
                // Two digits at most: a larger exponent may be out of a `Double`'s range.
                guard (1...2).contains(digits()) else { return false }
            }
            index = end
            return true
        }

        /// The bytes of a JSON string of printable ASCII without escapes (taken); `nil`, taking nothing, for any
        /// other value.
        mutating func plainASCIIString() -> UnsafeRawBufferPointer? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        }

        /// A JSON string, unescaped; `nil` when it is not valid JSON or not valid UTF-8.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            var escaped = false
            var ascii = true
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                // A raw control character is not JSON.
                guard byte >= 0x20 else { return nil }
                if byte >= 0x80 { ascii = false }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    end += 1
                }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            // ASCII is valid UTF-8: decoding it needs no validation (`String(validating:)` is generic, and looked
            // up its metadata at run time for every string, a tenth of reading the manifest).
            if ascii, !escaped { return String(decoding: raw, as: UTF8.self) }
            guard escaped else { return String(validating: raw, as: UTF8.self) }
            return Self.unescaped(raw)
        }

        /// The text of a string's bytes with escapes, resolved; `nil` on a bad escape or invalid UTF-8.
        private static func unescaped(_ raw: UnsafeRawBufferPointer) -> String? {
            var output: [UInt8] = []
            output.reserveCapacity(raw.count)
            var index = 0
            func hex4(at position: Int) -> UInt32? {
                guard position + 4 <= raw.count else { return nil }
                var value: UInt32 = 0
                for byte in raw[position..<position + 4] {
                    guard let digit = hexDigit(byte) else { return nil }
                    value = value << 4 | digit
                }
                return value
            }
            while index < raw.count {
                let byte = raw[index]
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    index += 1
                    continue
                }
                guard index + 1 < raw.count else { return nil }
                let kind = raw[index + 1]
                index += 2
                switch kind {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(kind)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4(at: index) else { return nil }
                    index += 4
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"),
                            raw[index + 1] == UInt8(ascii: "u"), let low = hex4(at: index + 2),
                            (0xDC00..<0xE000).contains(low)
                        else { return nil }
                        index += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    output.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    return nil
                }
            }
            return String(validating: output, as: UTF8.self)
        }

        private static func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            case 0x61...0x66: UInt32(byte - 0x61 + 10)
            default: nil
            }
        }
    }
}
