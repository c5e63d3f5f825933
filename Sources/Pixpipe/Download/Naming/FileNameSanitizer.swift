import Foundation

/// Turns untrusted text (a URL's path, a name column) into one safe file name component.
///
/// The result never contains `/`, `\`, NUL or another control character, never a format character
/// (bidirectional controls such as U+202E, which make a name display reversed, zero-width and invisible
/// characters) nor a line or paragraph separator (U+2028, U+2029); never contains `..`, never starts with
/// a dot (so it can be neither hidden nor `.`/`..`, nor clash with the `.NAME.part-XXXX` temporary files),
/// never ends with a dot or a space, and is at most ``maxStemBytes`` bytes of UTF-8. It may be empty;
/// callers then use a fallback.
///
/// Every rule is checked per Unicode scalar, not per `Character`: `".\u{301}x"` is one character that is
/// not a dot, yet its first byte is, and the file would be hidden.
enum FileNameSanitizer {
    /// The longest stem kept, in UTF-8 bytes; with a suffix and extension the name stays under 255 bytes.
    static let maxStemBytes = 200
    /// The longest whole file name written, in UTF-8 bytes.
    static let maxNameBytes = 240

    /// What becomes of one scalar of a name.
    enum ScalarRule: Equatable {
        /// Kept as it is.
        case keep
        /// Replaced by `_`: it separates (a path separator, a line break, a control) or reorders what
        /// follows (a bidirectional control), so it stands for something the reader should see.
        case replace
        /// Dropped: an invisible format character (a soft hyphen, a byte order mark, a word joiner).
        case drop
    }

    /// The rule for `scalar`.
    static func rule(for scalar: Unicode.Scalar) -> ScalarRule {
        if scalar.isASCII {
            let value = scalar.value
            return value < 0x20 || value == 0x7F || scalar == "/" || scalar == "\\" ? .replace : .keep
        }
        switch scalar.value {
        // Bidirectional marks, embeddings, overrides and isolates.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return .replace
        // Zero-width non-joiner and joiner shape letters and emoji sequences: part of a visible name.
        case 0x200C, 0x200D: return .keep
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return .replace
        case .format: return .drop
        default: return .keep
        }
    }

    /// `raw` made safe, truncated to `limit` bytes at a character boundary.
    static func sanitize(_ raw: String, limit: Int = maxStemBytes) -> String {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(raw.unicodeScalars.count)
        for scalar in raw.unicodeScalars {
            switch rule(for: scalar) {
            case .keep:
                // No two dots in a row, so no `..` anywhere.
                if scalar == ".", scalars.last == "." { continue }
                scalars.append(scalar)
            case .replace: scalars.append("_")
            case .drop: continue
            }
        }
        // A leading dot or space, scalar by scalar: a combining mark after a dot is still a leading dot.
        let start = scalars.firstIndex { $0 != "." && !$0.properties.isWhitespace } ?? scalars.endIndex
        var text = String(String.UnicodeScalarView(scalars[start...]))
        text = truncated(text, toBytes: limit)
        while let last = text.unicodeScalars.last, last == "." || last.properties.isWhitespace {
            text.unicodeScalars.removeLast()
        }
        return text
    }

    /// The last non-empty segment of `url`'s path, percent-decoded; empty when the path has none.
    static func lastPathComponent(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        return segment.removingPercentEncoding ?? segment
    }

    /// The last non-empty segment of the path of the absolute URL text `url` when it is plain (only bytes of
    /// ``isPlain(_:)``, so percent-decoding would leave it as it is); `nil` when it is not plain, or the
    /// text is not `scheme://authority/path...` (then ``lastPathComponent(of:)`` decides).
    static func plainLastSegment(ofURL url: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8>? {
        let slash = UInt8(ascii: "/")
        var index = 0
        // The scheme, then "://".
        while index < url.count, url[index] != UInt8(ascii: ":") {
            guard url[index] != slash, url[index] != UInt8(ascii: "?"), url[index] != UInt8(ascii: "#") else {
                return nil
            }
            index += 1
        }
        guard index > 0, index + 2 < url.count, url[index + 1] == slash, url[index + 2] == slash else { return nil }
        index += 3
        // The authority ends at the path, the query or the fragment.
        while index < url.count, url[index] != slash {
            if url[index] == UInt8(ascii: "?") || url[index] == UInt8(ascii: "#") { return [] }
            index += 1
        }
        var segmentStart = index
        var segmentEnd = index
        var start = index
        while index <= url.count {
            let atEnd = index == url.count || url[index] == UInt8(ascii: "?") || url[index] == UInt8(ascii: "#")
            if atEnd || url[index] == slash {
                if index > start {
                    segmentStart = start
                    segmentEnd = index
                }
                start = index + 1
                if atEnd { break }
            }
            index += 1
        }
        let segment = url[segmentStart..<segmentEnd]
        guard segment.allSatisfy(isPlain) else { return nil }
        return ArraySlice(segment)
    }

    /// Whether `byte` is kept as it is by sanitizing and percent-decoding: an ASCII letter or digit, `-`,
    /// `_`, `~` or `.` (where dots stand decides the rest: see ``plainStem(of:)``).
    static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// `sanitize(stem(of: sanitize(name, limit: .max)))` of a plain name, byte by byte; `nil` when `name`
    /// is empty, not all plain, or has dots sanitizing would change (leading, trailing or doubled), or its
    /// stem is over ``maxStemBytes``: the general path handles those.
    static func plainStem(of name: ArraySlice<UInt8>) -> String? {
        let dot = UInt8(ascii: ".")
        guard let first = name.first, first != dot, name.last != dot, name.allSatisfy(isPlain) else { return nil }
        var previous: UInt8 = 0
        for byte in name {
            if byte == dot, previous == dot { return nil }
            previous = byte
        }
        var stem = name
        // Not the first byte (not a dot, checked above), so never a dot at the start.
        if let lastDot = name.lastIndex(of: dot) {
            let suffix = name[(lastDot + 1)...]
            let isExtension =
                (1...5).contains(suffix.count)
                && suffix.allSatisfy {
                    (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                }
            if isExtension { stem = name[..<lastDot] }
        }
        guard stem.count <= maxStemBytes else { return nil }
        return String(decoding: stem, as: UTF8.self)
    }

    /// `name` without a trailing extension of 1 to 5 letters or digits (`photo.php` -> `photo`).
    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        let suffix = name[name.index(after: dot)...]
        guard (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return name }
        return String(name[..<dot])
    }

    /// `text` cut to at most `limit` bytes of UTF-8 without splitting a character.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            result.append(character)
            used += size
        }
        return result
    }

    /// `name` cut to ``maxNameBytes``, keeping its extension when it has one.
    static func limitingLength(of name: String) -> String {
        guard name.utf8.count > maxNameBytes else { return name }
        let base = stem(of: name)
        let ext = name.dropFirst(base.count)
        return truncated(base, toBytes: maxNameBytes - ext.utf8.count) + ext
    }
}
