import Foundation
import Pixpipe
import Testing

/// The entries and errors of `text` read as a list, as `line: url name` or `line: kind` strings.
func outcomes(_ text: String, format: URLListFormat? = nil) -> [String] {
    URLList(bytes: Array(text.utf8), format: format).map { element in
        switch element {
        case .success(let entry): "\(entry.line): \(entry.url.absoluteString)" + (entry.name.map { " \($0)" } ?? "")
        case .failure(let error): "\(error.line ?? 0): \(error.shortName)"
        }
    }
}

@Suite("URL lists: formats, detection and line errors")
struct URLListTests {
    @Test("Plain lines: comments, blank lines and surrounding whitespace are skipped")
    func plainLines() {
        let text = "# comics\n\n  https://example.com/a.png  \r\n\thttp://example.com/b.jpg\n# end\n"
        #expect(outcomes(text) == ["3: https://example.com/a.png", "4: http://example.com/b.jpg"])
    }

    @Test("Bad lines are reported with their number and the list goes on")
    func badLines() {
        let text =
            "https://example.com/a.png\nnot a url\nftp://example.com/c.png\nexample.com/d.png\nhttp:///x\n"
            + "https://example.com/e.png"
        #expect(
            outcomes(text) == [
                "1: https://example.com/a.png", "2: invalid-url", "3: unsupported-scheme", "4: invalid-url",
                "5: invalid-url", "6: https://example.com/e.png",
            ])
    }

    @Test("The error names the line and the text")
    func errorMessage() throws {
        let element = try #require(URLList(bytes: Array("\n\nftp://x/y".utf8)).first { _ in true })
        #expect(throws: URLListError.unsupportedScheme(scheme: "ftp", text: "ftp://x/y", line: 3)) {
            try element.get()
        }
        #expect(
            URLListError.unsupportedScheme(scheme: "ftp", text: "ftp://x/y", line: 3).description
                == "line 3: unsupported scheme 'ftp' in 'ftp://x/y' (only http and https)")
    }

    @Test("CSV with a header, quoted fields with commas, doubled quotes and line breaks")
    func csv() {
        let text = #"""
            # exported
            Name,URL,size
            "Panel, one",https://example.com/1.png,10
            "Say ""hi""", https://example.com/2.png ,20
            ,https://example.com/3.png
            "two
            lines",https://example.com/4.png
            only-a-name
            """#
        #expect(
            outcomes(text) == [
                "3: https://example.com/1.png Panel, one", "4: https://example.com/2.png Say \"hi\"",
                "5: https://example.com/3.png", "6: https://example.com/4.png two\nlines", "8: missing-url",
            ])
    }

    @Test("A row shorter than the url column has no url")
    func shortRow() {
        #expect(outcomes("name,url\nfirst\n") == ["2: missing-url"])
    }

    @Test("TSV with a header")
    func tsv() {
        #expect(outcomes("url\tname\nhttps://e.com/a.png\tA\n") == ["2: https://e.com/a.png A"])
    }

    @Test("A header without a url column ends the list with one error")
    func missingColumn() throws {
        let elements = Array(URLList(bytes: Array("link,name\nhttps://e.com/a.png,A\n".utf8)))
        #expect(elements.count == 1)
        #expect(throws: URLListError.missingURLColumn(header: ["link", "name"], line: 1)) { try elements[0].get() }
    }

    @Test("A quote left open is reported at the line it started on")
    func openQuote() {
        #expect(outcomes("url,name\nhttps://e.com/a.png,\"open\n") == ["2: unterminated-quote"])
    }

    @Test("JSON Lines with url and name; bad objects are line errors")
    func jsonLines() {
        let text = #"""
            {"url": "https://e.com/a.png", "name": "A", "extra": 1}
            {"url": "https://e.com/b.png"}
            {"name": "no url"}
            {"url": 5}
            [1, 2]
            {broken
            {"url": "https://e.com/c.png", "name": null}
            """#
        #expect(
            outcomes(text) == [
                "1: https://e.com/a.png A", "2: https://e.com/b.png", "3: missing-url", "4: malformed-json",
                "5: malformed-json", "6: malformed-json", "7: https://e.com/c.png",
            ])
    }

    @Test(
        "The format is detected from the first line that is not a comment",
        arguments: [
            ("https://e.com/a,b.png", URLListFormat.lines), ("{\"url\":\"x\"}", .jsonl), ("url\tname", .tsv),
            ("name,url", .csv), ("just words", .lines), ("  HTTP://E.COM/A.PNG", .lines),
        ])
    func detection(line: String, expected: URLListFormat) {
        #expect(URLListFormat.detect(firstLine: line) == expected)
    }

    @Test("A given format overrides detection")
    func override() {
        #expect(outcomes("url\nhttps://e.com/a.png\n", format: .lines) == ["1: invalid-url", "2: https://e.com/a.png"])
        #expect(outcomes("url\nhttps://e.com/a.png\n", format: .csv) == ["2: https://e.com/a.png"])
    }

    @Test("A byte-order mark and CRLF line ends are accepted")
    func byteOrderMark() {
        #expect(outcomes("\u{FEFF}url,name\r\nhttps://e.com/a.png,A\r\n") == ["2: https://e.com/a.png A"])
    }

    @Test("Invalid UTF-8 is a line error")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("https://e.com/a.png\n".utf8) + [0xFF, 0xFE, 0x0A] + Array("https://e.com/b".utf8)
        let lines = URLList(bytes: bytes).map { $0.map(\.line).mapError(\.shortName) }
        #expect(lines == [.success(1), .failure(URLListErrorKind("invalid-utf8")), .success(3)])
    }

    @Test("A missing file is one unreadable-list error")
    func missingFile() throws {
        let elements = Array(URLList(path: "/nonexistent/pixpipe/list.txt"))
        #expect(elements.count == 1)
        #expect(throws: URLListError.unreadable(reason: "cannot open '/nonexistent/pixpipe/list.txt'")) {
            try elements[0].get()
        }
    }
}

/// An error kind as a typed error, so results of kinds can be compared.
struct URLListErrorKind: Error, Hashable {
    let kind: String
    init(_ kind: String) { self.kind = kind }
}

extension Result where Failure == URLListError {
    /// The result with its error replaced by the error's kind.
    func mapError(_ kind: KeyPath<URLListError, String>) -> Result<Success, URLListErrorKind> {
        mapError { URLListErrorKind($0[keyPath: kind]) }
    }
}
