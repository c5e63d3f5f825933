import Foundation

/// Turns untrusted text (a URL's path, a name column) into one safe file name component.
///
/// The result never contains `/`, `\`, NUL or another control character, never contains `..`, never
/// starts with a dot (so it can be neither hidden nor `.`/`..`, nor clash with the `.NAME.part-XXXX`
/// temporary files), never ends with a dot or a space, and is at most ``maxStemBytes`` bytes of UTF-8.
/// It may be empty; callers then use a fallback.
enum FileNameSanitizer {
    /// The longest stem kept, in UTF-8 bytes; with a suffix and extension the name stays under 255 bytes.
    static let maxStemBytes = 200
    /// The longest whole file name written, in UTF-8 bytes.
    static let maxNameBytes = 240

    /// `raw` made safe, truncated to `limit` bytes at a character boundary.
    static func sanitize(_ raw: String, limit: Int = maxStemBytes) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            let isControl = scalar.properties.generalCategory == .control || scalar.value == 0x7F
            let isSeparator = scalar == "/" || scalar == "\\"
            scalars.append(isControl || isSeparator ? "_" : scalar)
        }
        var text = String(scalars)
        while text.contains("..") { text = text.replacingOccurrences(of: "..", with: ".") }
        text = String(text.drop { $0 == "." || $0.isWhitespace })
        text = truncated(text, toBytes: limit)
        while let last = text.last, last == "." || last.isWhitespace { text.removeLast() }
        return text
    }

    /// The last non-empty segment of `url`'s path, percent-decoded; empty when the path has none.
    static func lastPathComponent(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        return segment.removingPercentEncoding ?? segment
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
