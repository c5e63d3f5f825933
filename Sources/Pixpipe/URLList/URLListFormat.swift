/// How a URL list is written: plain lines, CSV, TSV or JSON Lines.
///
/// ```swift
/// let format = URLListFormat.detect(firstLine: "url,name")   // .csv
/// ```
public enum URLListFormat: String, Sendable, Hashable, CaseIterable {
    /// One URL per line.
    case lines
    /// Comma-separated values with a header row naming a `url` column and optionally a `name` column.
    case csv
    /// Tab-separated values with the same header as ``csv``.
    case tsv
    /// One JSON object per line with a `url` key and optionally a `name` key.
    case jsonl

    /// The format a list is written in, judged from its first line that is neither blank nor a comment.
    ///
    /// An object (`{`) means JSON Lines; a line that starts like an absolute URL (`scheme://`) means plain
    /// lines, even when the URL holds commas; otherwise a tab means TSV and a comma CSV. Anything else is
    /// read as plain lines, so a list whose first line is garbage reports that line instead of a missing header.
    public static func detect(firstLine: some StringProtocol) -> URLListFormat {
        let line = firstLine.trimmingListWhitespace()
        if line.hasPrefix("{") { return .jsonl }
        if startsWithScheme(line) { return .lines }
        if line.contains("\t") { return .tsv }
        if line.contains(",") { return .csv }
        return .lines
    }

    /// Whether `line` begins with `letters://`, the shape of an absolute URL with an authority.
    private static func startsWithScheme(_ line: Substring) -> Bool {
        guard let separator = line.range(of: "://") else { return false }
        let scheme = line[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}

extension StringProtocol {
    /// The text without surrounding spaces, tabs, carriage returns and byte-order marks.
    func trimmingListWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{FEFF}" }
        let text = Substring(self)
        // The usual line needs no trimming: when its first and last bytes are ASCII other than a blank, its
        // first and last characters start and end with a scalar no blank character holds, so neither is
        // blank. Looking at two bytes saves walking the characters from both ends (grapheme breaking), a
        // tenth of reading a long list.
        if let first = text.utf8.first, let last = text.utf8.last, Self.isPlainEnd(first), Self.isPlainEnd(last) {
            return text
        }
        guard let start = text.firstIndex(where: { !isBlank($0) }),
            let end = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[start...end]
    }

    /// Whether `byte` is ASCII other than a space, a tab or a carriage return.
    private static func isPlainEnd(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r")
    }
}
