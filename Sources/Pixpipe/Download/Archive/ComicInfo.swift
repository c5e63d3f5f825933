import Foundation

/// The `ComicInfo.xml` of a comic book archive, the metadata comic readers show: what the list's columns give.
struct ComicInfo: Sendable, Hashable {
    /// The `series` column.
    var series: String?
    /// The `number` column (the issue or chapter number).
    var number: String?
    /// The `title` column.
    var title: String?
    /// The pages in the archive.
    var pageCount: Int

    /// The document, UTF-8, each value XML-escaped.
    var xml: String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<ComicInfo xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">",
        ]
        for (element, value) in [("Title", title), ("Series", series), ("Number", number)] {
            if let value { lines.append("  <\(element)>\(Self.escaped(value))</\(element)>") }
        }
        lines.append("  <PageCount>\(pageCount)</PageCount>")
        lines.append("</ComicInfo>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with the five XML special characters escaped, and the control characters XML 1.0 cannot hold
    /// (all below U+0020 but tab, line feed and carriage return) left out.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
