/// A byte-level check of the plainest http and https URLs, so a pass that only counts a list's entries need
/// not parse each one through `URL(string:)` (about 400 ns a line, a tenth of a resumed run's start-up).
///
/// It accepts only text of this shape, all ASCII: `http://` or `https://` (lowercase), a host of DNS labels
/// (letters, digits and inner hyphens, separated by single dots), an optional port of 1 to 5 digits, then a
/// path, query and fragment made of RFC 3986's unreserved characters, sub-delimiters, `:`, `@`, `/`, `?` and
/// well-formed `%XX` escapes. `URL(string:)` accepts every such text as it is (its `absoluteString` is the
/// text itself), with that scheme and a non-empty host; the tests check this on awkward and generated URLs.
/// Anything else is not judged here: the caller parses it as before, so a rejection is never an error.
enum PlainHTTPURL {
    /// Whether `text` has the plain shape above.
    static func accepts(_ text: Substring) -> Bool {
        if let verdict = text.utf8.withContiguousStorageIfAvailable({ accepts(bytes: $0) }) { return verdict }
        return Array(text.utf8).withUnsafeBufferPointer { accepts(bytes: $0) }
    }

    /// Whether `bytes` have the plain shape above.
    static func accepts(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        // The scheme: `http://` or `https://`.
        guard count > 7, bytes[0] == ascii("h"), bytes[1] == ascii("t"), bytes[2] == ascii("t"), bytes[3] == ascii("p")
        else { return false }
        var index = bytes[4] == ascii("s") ? 5 : 4
        guard count > index + 3, bytes[index] == ascii(":"), bytes[index + 1] == ascii("/"),
            bytes[index + 2] == ascii("/")
        else { return false }
        index += 3
        // The host: labels of letters and digits with inner hyphens, separated by single dots.
        let hostStart = index
        var labelStart = index
        while index < count {
            let byte = bytes[index]
            if classes[Int(byte)] & alphanumeric != 0 {
                index += 1
            } else if byte == ascii("-") {
                // Not at a label's start (checked below, with its end).
                index += 1
            } else if byte == ascii(".") {
                guard isLabel(bytes, labelStart..<index) else { return false }
                index += 1
                labelStart = index
            } else {
                break
            }
        }
        guard isLabel(bytes, labelStart..<index), index - hostStart <= 253 else { return false }
        // The port.
        if index < count, bytes[index] == ascii(":") {
            index += 1
            let digitsStart = index
            while index < count, bytes[index] >= ascii("0"), bytes[index] <= ascii("9") { index += 1 }
            guard (1...5).contains(index - digitsStart) else { return false }
        }
        // The path, query and fragment; a path starts with `/`, and at most one `#` ends the query.
        guard index == count || bytes[index] == ascii("/") || bytes[index] == ascii("?") || bytes[index] == ascii("#")
        else { return false }
        var inFragment = false
        while index < count {
            let byte = bytes[index]
            if classes[Int(byte)] & pathCharacter != 0 {
                index += 1
            } else if byte == ascii("%") {
                guard index + 2 < count, classes[Int(bytes[index + 1])] & hexDigit != 0,
                    classes[Int(bytes[index + 2])] & hexDigit != 0
                else { return false }
                index += 3
            } else if byte == ascii("?") {
                index += 1
            } else if byte == ascii("#"), !inFragment {
                inFragment = true
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    /// Whether `range` of `bytes` is a DNS label: 1 to 63 letters, digits and hyphens, not starting or
    /// ending with a hyphen.
    private static func isLabel(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard (1...63).contains(range.count) else { return false }
        return bytes[range.lowerBound] != ascii("-") && bytes[range.upperBound - 1] != ascii("-")
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    private static let alphanumeric: UInt8 = 1
    private static let pathCharacter: UInt8 = 2
    private static let hexDigit: UInt8 = 4

    /// Each byte's classes: letters and digits; the characters a path, query or fragment holds as they are
    /// (unreserved, sub-delimiters, `:`, `@`, `/`); hex digits.
    private static let classes: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        var classes: UInt8 = 0
        let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        let isDigit = byte >= 0x30 && byte <= 0x39
        if isLetter || isDigit { classes |= alphanumeric | pathCharacter }
        if Array("-._~!$&'()*+,;=:@/".utf8).contains(byte) { classes |= pathCharacter }
        if isDigit || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66) { classes |= hexDigit }
        return classes
    }
}
