import Foundation
import Testing

@testable import Pixpipe

/// The byte-level naming of plain URLs (``FileNameClaims/plainPattern(for:template:)``) gives exactly the
/// names of the general path, or defers to it.
@Suite("Plain file names")
struct PlainFileNameTests {
    /// Awkward URLs and names: dots in every place, escapes, unicode, queries, fragments, empty paths.
    static let awkward: [(String, String?)] = [
        ("https://example.com/photo.jpg", nil), ("https://example.com/photo.jpg?id=7", nil),
        ("https://example.com/a/b/c/photo.JPEG#top", nil), ("https://example.com/dir/", nil),
        ("https://example.com", nil), ("https://example.com/", nil), ("https://example.com?x=1", nil),
        ("https://example.com#f", nil), ("https://example.com/.hidden", nil), ("https://example.com/a..b.png", nil),
        ("https://example.com/a.b.c", nil), ("https://example.com/trailing.", nil),
        ("https://example.com/x.toolong", nil),
        ("https://example.com/x.ab-c", nil), ("https://example.com/x.12345", nil),
        ("https://example.com/x.123456", nil),
        ("https://example.com/%2e%2e%2fsecret.png", nil), ("https://example.com/caf%C3%A9.png", nil),
        ("https://example.com/caf\u{E9}.png", nil), ("https://user:pw@example.com:8080/p/q.gif", nil),
        ("http://127.0.0.1:8080/scale/000123-t123.jpg", nil), ("https://example.com//double//slash.png", nil),
        ("https://example.com/a.png/", nil), ("https://example.com/~user/_x_-y.webp", nil),
        ("https://example.com/" + String(repeating: "a", count: 200) + ".png", nil),
        ("https://example.com/" + String(repeating: "a", count: 201) + ".png", nil),
        ("https://example.com/" + String(repeating: "b", count: 300), nil), ("https://example.com/x", "given"),
        ("https://example.com/x", "given.name.png"), ("https://example.com/x", ".dot"),
        ("https://example.com/x", "a b"),
        ("https://example.com/x", "a..b"), ("https://example.com/x", "Résumé"), ("https://example.com/x", "a/b"),
        ("https://example.com/x", "x."), ("https://example.com/x", "-"), ("https://example.com/x", "~.~"),
        ("https://[::1]:8080/v6.png", nil), ("https://example.com/a;b=c/d.png", nil),
        ("https://example.com/a+b.png", nil),
    ]

    @Test("Awkward URLs and names get the general path's pattern")
    func awkwardURLs() throws {
        for (text, name) in Self.awkward {
            try check(DownloadItem(url: try #require(URL(string: text)), name: name))
        }
    }

    @Test("Generated URLs get the general path's pattern, and plain ones take the byte path")
    func generatedURLs() throws {
        var generator = SplitMix(seed: 18)
        let pieces = [
            "a", "Z", "0", "9", "-", "_", "~", ".", "..", "%41", "%2F", "é", "+", "photo", "x.jpg", "/", "//",
        ]
        var plainCount = 0
        for _ in 0..<5_000 {
            var path = ""
            for _ in 0..<Int(generator.next() % 8) { path += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let tail = ["", "?q=1", "#f", "?a=b/c#d"][Int(generator.next() % 4)]
            guard let url = URL(string: "http://h.example:81/" + path + tail) else { continue }
            let item = DownloadItem(url: url)
            if FileNameClaims.plainPattern(for: item, template: FileNamePattern.defaultTemplate) != nil {
                plainCount += 1
            }
            try check(item)
        }
        // The byte path must be the one most plain lists take, or it would not be tested here.
        #expect(plainCount > 500)
        for index in 0..<1_000 {
            let item = DownloadItem(
                url: try #require(URL(string: "http://127.0.0.1/scale/\(index)-t\(index % 300).jpg")))
            #expect(FileNameClaims.plainPattern(for: item, template: FileNamePattern.defaultTemplate) != nil)
        }
    }

    @Test("Another template always takes the general path")
    func otherTemplates() throws {
        let item = DownloadItem(url: try #require(URL(string: "https://example.com/photo.jpg")))
        #expect(FileNameClaims.plainPattern(for: item, template: "{index}-{name}") == nil)
    }

    /// The byte path's pattern, when it gives one, equals the general path's.
    private func check(_ item: DownloadItem) throws {
        let template = FileNamePattern.defaultTemplate
        let general = FileNameClaims.pattern(for: item, index: 3, template: template)
        if let plain = FileNameClaims.plainPattern(for: item, template: template) {
            #expect(plain == general, "\(item.url.absoluteString) name \(item.name ?? "-")")
        }
    }
}

/// A small deterministic generator (SplitMix64) so a failure reproduces.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
