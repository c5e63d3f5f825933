import Foundation
import PixpipeLocking

/// An HTML page recognised in a response body, for the error that names it: the page a captive portal,
/// a login wall or a server's error handler sends (often with `200`) where an image or JSON was asked for.
struct HTMLPage {
    /// The page's `<title>`, one short escaped line, when it has one.
    var title: String?
    /// The start of the page as one escaped line of at most ``HTTPError/bodyExcerptLength`` characters.
    var excerpt: String

    /// The bytes read to recognise a page and take its excerpt and title.
    private static let prefixLength = 4096

    /// The page in `body`, or `nil` when it is not one: the text (after a byte-order mark and whitespace)
    /// opens with `<!doctype html` or `<html`, or `contentType` says HTML and the text opens with `<`.
    init?(body: Data, contentType: String?) {
        let text = String(decoding: body.prefix(Self.prefixLength), as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        let opening = start.prefix(14).lowercased()
        let labelled =
            contentType.map {
                MediaType.matches($0, pattern: "text/html") || MediaType.matches($0, pattern: "application/xhtml+xml")
            } ?? false
        guard opening.hasPrefix("<!doctype html") || opening.hasPrefix("<html") || (labelled && opening.hasPrefix("<"))
        else { return nil }
        excerpt = UntrustedText.excerpt(start.prefix(512), limit: HTTPError.bodyExcerptLength)
        title = Self.title(in: String(start))
    }

    /// The text between `<title ...>` and `</title>`, as one short escaped line; `nil` when absent or blank.
    private static func title(in text: String) -> String? {
        guard let open = text.range(of: "<title", options: .caseInsensitive),
            let close = text[open.upperBound...].firstIndex(of: ">"),
            let end = text.range(of: "</title", options: .caseInsensitive, range: close..<text.endIndex)
        else { return nil }
        let title = UntrustedText.excerpt(text[text.index(after: close)..<end.lowerBound], limit: 80)
        return title.isEmpty ? nil : title
    }
}
