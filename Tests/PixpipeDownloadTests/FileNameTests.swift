import Foundation
import Testing

@testable import Pixpipe

@Suite("File names")
struct FileNameTests {
    private func name(
        url: String, name: String? = nil, template: String? = nil, index: Int = 0, ext: String = "png"
    ) throws -> String {
        var claims = FileNameClaims(template: template)
        let item = DownloadItem(url: try #require(URL(string: url)), name: name)
        return claims.claim(for: item, index: index).render(sha256: "ab12", fileExtension: ext)
    }

    @Test(
        "Hostile names stay one safe component inside the folder",
        arguments: [
            "../../etc/passwd", "%2e%2e%2f", "..", ".", "a/b", "a\u{0}b", "\u{1}\u{7F}", ".hidden", "", "   ",
            "..\\..\\windows", String(repeating: "é", count: 400), "...", "/", "a/../../b",
        ])
    func hostileItemNames(hostile: String) throws {
        let result = try name(url: "https://example.com/x", name: hostile, index: 4)
        #expect(!result.contains("/"))
        #expect(!result.contains("\\"))
        #expect(!result.contains(".."))
        #expect(!result.hasPrefix("."))
        #expect(!result.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(result.utf8.count <= 255)
        #expect(result.hasSuffix(".png"))
        #expect(
            URL(fileURLWithPath: "/out").appendingPathComponent(result).standardized.deletingLastPathComponent().path
                == "/out")
    }

    @Test(
        "Hostile URL paths are decoded then sanitized",
        arguments: [
            ("https://example.com/%2e%2e%2fsecret.png", "_secret.png"),
            ("https://example.com/a%2Fb.jpg", "a_b.png"),
            ("https://example.com/%00evil.png", "_evil.png"),
            ("https://example.com/.profile", "profile.png"),
            ("https://example.com/", "index-5.png"),
            ("https://example.com/dir/", "dir.png"),
            ("https://example.com/photo.php?id=3", "photo.png"),
            ("https://example.com/caf%C3%A9.jpeg", "café.png"),
        ])
    func hostileURLs(url: String, expected: String) throws {
        #expect(try name(url: url, index: 4) == expected)
    }

    @Test("The extension comes from the stored bytes, not from the URL or the given name")
    func extensionFromBytes() throws {
        #expect(try name(url: "https://example.com/cat.png", ext: "jpg") == "cat.jpg")
        #expect(try name(url: "https://example.com/cat.png", name: "kitty.gif", ext: "jpg") == "kitty.jpg")
    }

    @Test("Templates fill index, name, host, sha256 and ext")
    func templates() throws {
        #expect(
            try name(url: "https://img.example.com/a/cat.png", template: "{index}-{host}-{name}", index: 2)
                == "3-img.example.com-cat.png")
        #expect(try name(url: "https://example.com/cat.png", template: "{sha256}.{ext}", ext: "jpg") == "ab12.jpg")
        #expect(try name(url: "https://example.com/cat.png", template: "{name}/{unknown}") == "cat_{unknown}.png")
        #expect(try name(url: "https://example.com/cat.png", template: "../{name}") == "_cat.png")
    }

    @Test("Collisions get -2, -3 in list order, ignoring case and the URL's extension")
    func collisions() throws {
        var claims = FileNameClaims(template: nil)
        let urls = [
            "https://a.com/photo.jpg", "https://b.com/Photo.png", "https://c.com/photo", "https://d.com/photo-2.jpg",
        ]
        let names = try urls.enumerated().map { index, url in
            claims.claim(for: DownloadItem(url: try #require(URL(string: url))), index: index)
                .render(sha256: "", fileExtension: "jpg")
        }
        #expect(names == ["photo.jpg", "Photo-2.jpg", "photo-3.jpg", "photo-2-2.jpg"])
    }

    @Test("Many URLs with one name get consecutive suffixes, skipping names taken by other items")
    func manyCollisions() throws {
        var claims = FileNameClaims(template: nil)
        var names: [String] = []
        // `image-3.jpg` is taken by its own URL first; the rest are `image.jpg?id=N`, as in many dataset lists.
        let urls = ["https://a.com/image-3.jpg"] + (0..<5000).map { "https://a.com/image.jpg?id=\($0)" }
        for (index, url) in urls.enumerated() {
            let pattern = claims.claim(for: DownloadItem(url: try #require(URL(string: url))), index: index)
            names.append(pattern.render(sha256: "", fileExtension: "jpg"))
        }
        let expected = ["image-3.jpg", "image.jpg", "image-2.jpg"] + (4...5001).map { "image-\($0).jpg" }
        let mismatch = zip(names, expected).first { $0 != $1 }
        #expect(names.count == expected.count && mismatch == nil, "first difference: \(String(describing: mismatch))")
    }

    @Test("A template using {ext} keeps the suffix before the extension")
    func suffixWithExtensionTemplate() throws {
        var claims = FileNameClaims(template: "{name}.{ext}")
        let url = try #require(URL(string: "https://a.com/x.png"))
        _ = claims.claim(for: DownloadItem(url: url), index: 0)
        #expect(
            claims.claim(for: DownloadItem(url: url), index: 1).render(sha256: "", fileExtension: "png") == "x-2.png")
    }
}
