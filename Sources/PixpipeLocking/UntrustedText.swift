/// Text from outside the program (a server's body, a URL, a header, a name from a list, a manifest or the
/// file system) made safe to show on a terminal, in a message or in an error's description.
///
/// A terminal obeys the control characters it is sent: `ESC ]0;...BEL` sets its title, `ESC [2J` clears
/// the screen, and bidirectional controls make text read in another order than it is stored. Every such
/// scalar is shown as an escape instead, so the text reads as what it is and always stays on one line:
///
/// | scalars | shown as |
/// |---|---|
/// | U+0000-U+001F, U+007F (C0, DEL) and U+0080-U+009F (C1) | `\x` and two lowercase hex digits: `\x1b`, `\x0a`, `\x9b` |
/// | bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069; U+2028, U+2029 | `\u{` hex `}`: `\u{202e}` |
///
/// Everything else, backslashes included, is kept as it is: the escaping is for reading, not a reversible
/// encoding. The scheme is the one place that decides; the description of `HTTPError`, the downloader's
/// errors and the command line's messages all go through it.
package enum UntrustedText {
    /// Whether `scalar` is shown escaped.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `text` with every scalar of ``needsEscape(_:)`` escaped; `text` itself when it has none.
    package static func escaped(_ text: some StringProtocol) -> String {
        // The common case, printable ASCII only, is one pass over the bytes and no copy.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// One short line from `text` (a response body): runs of whitespace (line breaks included) become one
    /// space, the ends are trimmed, controls are escaped, and the result is cut to at most `limit`
    /// characters, ending in `…` when cut. An escape is never cut in two.
    package static func excerpt(_ text: some StringProtocol, limit: Int = 200) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        // Where the text would end, in UTF-8 bytes, if the next piece does not fit: the last end that leaves
        // room for `…`.
        var cutEnd = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            var piece = pendingSpace ? " " : ""
            pendingSpace = false
            append(scalar, to: &piece)
            guard count + piece.count <= limit else {
                return String(decoding: result.utf8.prefix(cutEnd), as: UTF8.self) + "…"
            }
            result += piece
            count += piece.count
            if count <= limit - 1 { cutEnd = result.utf8.count }
        }
        return result
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard needsEscape(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        let hex = String(scalar.value, radix: 16)
        if scalar.value <= 0xFF {
            result += hex.count < 2 ? "\\x0" + hex : "\\x" + hex
        } else {
            result += "\\u{" + hex + "}"
        }
    }
}
