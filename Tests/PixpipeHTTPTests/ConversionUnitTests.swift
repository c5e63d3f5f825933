import Foundation
import Testing

@testable import PixpipeHTTP

@Suite("Conversions and helpers without I/O")
struct ConversionUnitTests {
    let metadata = ResponseMetadata(statusCode: 200, headers: [:], url: URL(string: "http://example.com/x")!)

    @Test(arguments: [
        ("text/plain; charset=utf-16le", Data("hi".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "hi"),
        ("text/plain; charset=\"windows-1252\"", Data([0x80]), "€"),
        ("text/plain", Data("✓".utf8), "✓"),
    ])
    func stringCharsets(contentType: String, body: Data, expected: String) throws {
        var metadata = metadata
        metadata.headers["Content-Type"] = contentType
        #expect(try String(body: body, metadata: metadata) == expected)
    }

    @Test func unknownCharsetIsRefused() {
        var metadata = metadata
        metadata.headers["Content-Type"] = "text/plain; charset=klingon"
        #expect(throws: ConversionError.unsupportedCharset("klingon")) {
            try String(body: Data("x".utf8), metadata: metadata)
        }
    }

    @Test func jsonKeepsBooleansApartFromNumbers() throws {
        let json = try JSON(data: Data(#"[true, 1, 1.5, "s", null, {"k": false}]"#.utf8))
        #expect(json == [true, 1, 1.5, "s", nil, ["k": false]])
        #expect(json[0]?.doubleValue == nil)
        #expect(json[2]?.intValue == nil)
    }

    @Test func jsonDecodeAtKeyPathReportsTheTypeOnMismatch() throws {
        struct Point: Decodable { var x: Int }
        let json: JSON = ["p": ["x": "not a number"]]
        #expect(throws: ConversionError.self) { try json.decode(Point.self, at: "p") }
        let valid: JSON = ["p": ["x": 2]]
        #expect(try valid.decode(Point.self, at: "p").x == 2)
    }

    @Test func resultConveniences() throws {
        let success: Result<JSON, HTTPError> = .success(["name": "ada"])
        let missing = HTTPError.conversionFailed(.missingValue(type: "String"), url: nil)
        #expect(try success.flatMap({ $0["name"]?.stringValue }, orFailWith: missing).get() == "ada")
        #expect(throws: missing) { try success.flatMap({ $0["age"]?.stringValue }, orFailWith: missing).get() }

        var seen: [String] = []
        success.onSuccess { _ in seen.append("success") }.onFailure { _ in seen.append("failure") }
        Result<JSON, HTTPError>.failure(missing).onSuccess { _ in seen.append("success") }
            .onFailure { seen.append("\($0.url == nil)") }
        #expect(seen == ["success", "true"])
    }

    @Test func formBodyIsPercentEncoded() {
        let body = RequestBody.form([("q", "cats & dogs"), ("lang", "é")])
        #expect(String(decoding: body.data, as: UTF8.self) == "q=cats+%26+dogs&lang=%C3%A9")
        #expect(body.contentType == "application/x-www-form-urlencoded")
    }

    @Test func headersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "a"]
        headers["content-type"] = "b"
        #expect(headers["CONTENT-TYPE"] == "b")
        #expect(headers.count == 1)
    }

    @Test func redirectPolicyRefusesDowngradeOtherSchemesAndExcess() {
        let policy = RedirectPolicy(maxRedirects: 2)
        let https = URL(string: "https://a.example/x")!
        let http = URL(string: "http://a.example/y")!
        let ftp = URL(string: "ftp://a.example/z")!
        #expect(policy.check(redirectNumber: 1, from: https, to: http) == .insecureRedirect(from: https, to: http))
        #expect(policy.check(redirectNumber: 1, from: http, to: ftp) == .unsupportedScheme("ftp", url: ftp))
        #expect(policy.check(redirectNumber: 3, from: http, to: http) == .tooManyRedirects(limit: 2, url: http))
        #expect(policy.check(redirectNumber: 2, from: http, to: https) == nil)
        #expect(RedirectPolicy(allowsInsecureRedirects: true).check(redirectNumber: 1, from: https, to: http) == nil)
    }
}

/// Descriptions of conversion failures stay one escaped line whatever the parser or converter said.
@Suite("Conversion error descriptions")
struct ConversionErrorDescriptionTests {
    @Test func descriptionsAreOneEscapedLine() {
        let errors: [ConversionError] = [
            .invalidJSON(reason: "line 1\nline 2"), .decodingFailed(type: "Item", keyPath: nil, reason: "a\r\nb"),
            .underlying(LibraryMessage(text: "bad\nchunk\u{1B}[2J")),
            .htmlPage(title: nil, excerpt: String(repeating: "<p>x</p> ", count: 30)),
        ]
        for error in errors {
            #expect(!error.description.contains { $0.isNewline } && !error.description.contains("\u{1B}"), "\(error)")
        }
        #expect(errors[0].description == "body is not valid JSON: line 1\\x0aline 2")
        #expect(errors[3].description.count < 200)
    }
}

/// An underlying error whose description is a library's raw message, control characters included.
private struct LibraryMessage: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
