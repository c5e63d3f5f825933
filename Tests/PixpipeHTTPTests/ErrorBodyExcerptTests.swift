import Foundation
import PixpipeHTTP
import PixpipeLocking
import PixpipeTestSupport
import Testing

/// A server's error body becomes one short, escaped line in `HTTPError`; the escaping scheme itself.
@Suite("Error body excerpt and escaped text")
struct ErrorBodyExcerptTests {
    @Test("A 404's body of controls and 13 lines of HTML: an escaped line of 200 characters, 120 shown")
    func hostileBody() async throws {
        let server = try TestHTTPServer()
        let html = (1...13).map { "<p>\tline \($0) of the page</p>" }.joined(separator: "\r\n")
        server.route("/missing", .respond(status: 404, body: Array(("\u{1B}]0;pwned\u{07}\u{1B}[2J\n" + html).utf8)))
        let client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))

        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<String>(path: "/missing")) }

        guard case .httpStatus(404, _, let excerpt) = error else {
            Issue.record("expected a 404, got \(String(describing: error))")
            return
        }
        #expect(excerpt.hasPrefix("\\x1b]0;pwned\\x07\\x1b[2J <p> line 1 of the page</p> <p> line 2"))
        #expect(excerpt.count <= HTTPError.bodyExcerptLength && excerpt.hasSuffix("…"))
        let description = try #require(error?.description)
        #expect(!description.unicodeScalars.contains { UntrustedText.needsEscape($0) })
        #expect(error?.bodyExcerpt == excerpt)
        let shown = UntrustedText.excerpt(excerpt, limit: HTTPError.descriptionExcerptLength)
        #expect(shown.count <= HTTPError.descriptionExcerptLength && description.hasSuffix(": " + shown))
        #expect(shown.count < excerpt.count && shown.hasSuffix("…"))
    }

    @Test(
        "Controls are shown as \\xHH below U+0100 and as \\u{...} above, and nothing else changes",
        arguments: [
            ("plain text", "plain text"), ("a\u{1B}[2Jb", "a\\x1b[2Jb"), ("bel\u{07}", "bel\\x07"),
            ("nul\u{0}", "nul\\x00"), ("del\u{7F}", "del\\x7f"), ("csi\u{9B}", "csi\\x9b"),
            ("line\nbreak", "line\\x0abreak"),
            ("rlo\u{202E}txt", "rlo\\u{202e}txt"), ("iso\u{2066}x\u{2069}", "iso\\u{2066}x\\u{2069}"),
            ("ls\u{2028}ps\u{2029}", "ls\\u{2028}ps\\u{2029}"), ("mark\u{200F}", "mark\\u{200f}"),
            ("café ✓ 日本", "café ✓ 日本"), ("back\\slash", "back\\slash"),
        ])
    func escaping(raw: String, shown: String) {
        #expect(UntrustedText.escaped(raw) == shown)
        // Escaping what was escaped changes nothing: messages built from escaped parts stay readable.
        #expect(UntrustedText.escaped(shown) == shown)
    }

    @Test("An excerpt is cut before an escape, never inside it, and a short text is kept whole")
    func excerptCuts() {
        #expect(UntrustedText.excerpt("  short \n\n text  ") == "short text")
        #expect(UntrustedText.excerpt(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
        let cut = UntrustedText.excerpt(String(repeating: "a", count: 196) + "\u{1B}bcd")
        #expect(cut == String(repeating: "a", count: 196) + "…")
        let long = UntrustedText.excerpt(String(repeating: "word ", count: 100))
        #expect(long.count == 200 && long.hasSuffix("…"))
    }

    @Test("No scalar that drives a terminal or reorders text survives escaping")
    func escapingCoversEveryControl() {
        for value in 0...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let shown = UntrustedText.escaped("a\(scalar)b")
            let survivor = shown.unicodeScalars.first { scalar in
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator: true
                default: UntrustedText.needsEscape(scalar)
                }
            }
            #expect(survivor == nil, "U+\(String(value, radix: 16))")
        }
    }

    @Test("Descriptions built from a hostile header, URL text or transport message hold no control")
    func hostileDescriptions() throws {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        let errors: [HTTPError] = [
            .invalidURL("http://a\u{1B}[2J/\u{202E}x"),
            .unacceptableContentType("text/html\u{1B}]0;t\u{07}", accepted: ["image/*"], url: url),
            .transport(code: 56, description: "reset\r\nby \u{9B}peer", url: url),
            .httpStatus(code: 500, url: url, bodyPrefix: "raw\nbody\u{1B}[2J"),
        ]
        for error in errors {
            #expect(!error.description.unicodeScalars.contains { UntrustedText.needsEscape($0) }, "\(error)")
        }
        #expect(errors[3].description.hasSuffix("answered HTTP 500: raw body\\x1b[2J"))
    }
}
