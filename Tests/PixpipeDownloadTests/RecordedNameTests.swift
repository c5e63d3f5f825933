import Foundation
import Testing

@testable import Pixpipe

/// How claims treat the names a folder's manifest already gives out (``RecordedNames``).
@Suite("File names: names recorded in the folder")
struct RecordedNameTests {
    static let hash = String(repeating: "ab", count: 32)

    /// An index of `ok` lines giving each URL its name.
    static func prior(_ names: [(url: String, name: String)]) -> PriorIndex {
        var prior = PriorIndex()
        for (url, name) in names {
            let record = ManifestRecord(url: url, name: name, status: .ok, bytes: 1, sha256: hash)
            prior.insert(ManifestLine(record), fingerprint: URLFingerprint(absoluteString: url))
        }
        return prior
    }

    func claim(
        _ claims: inout FileNameClaims, _ url: String, index: Int, prior: PriorIndex
    ) throws -> (name: String, own: String?) {
        let fingerprint = URLFingerprint(absoluteString: url)
        let (pattern, own) = claims.claim(
            for: DownloadItem(url: try #require(URL(string: url))), index: index, fingerprint: fingerprint,
            recordedName: prior[fingerprint]?.name)
        return (pattern.render(sha256: "", fileExtension: "png"), own)
    }

    @Test("Another URL's recorded name is taken, whatever the order; a URL keeps its own, even a suffixed one")
    func otherURLsNamesTaken() throws {
        let prior = Self.prior([
            ("https://a.com/x/photo.png", "photo.png"), ("https://a.com/y/photo.png", "photo-2.png"),
        ])
        var claims = FileNameClaims(template: nil, recorded: RecordedNames(prior))
        let new = try claim(&claims, "https://b.com/z/photo.png", index: 0, prior: prior)
        #expect(new.name == "photo-3.png" && new.own == nil)
        let second = try claim(&claims, "https://a.com/y/photo.png", index: 1, prior: prior)
        #expect(second.name == "photo-2.png" && second.own == "photo-2.png")
        let first = try claim(&claims, "https://a.com/x/photo.png", index: 2, prior: prior)
        #expect(first.name == "photo.png" && first.own == "photo.png")
    }

    @Test("A name several URLs' latest lines hold belongs to none of them")
    func contestedName() throws {
        let prior = Self.prior([("https://a.com/1/p.png", "p.png"), ("https://a.com/2/p.png", "p.png")])
        var claims = FileNameClaims(template: nil, recorded: RecordedNames(prior))
        let first = try claim(&claims, "https://a.com/1/p.png", index: 0, prior: prior)
        #expect(first.name == "p-2.png" && first.own == nil)
    }

    @Test("With originals kept, an item's name is free only if its original's is too, and claims both")
    func originalsReserved() throws {
        var claims = FileNameClaims(template: nil, keepsOriginal: true)
        let prior = PriorIndex()
        #expect(try claim(&claims, "https://a.com/photo.png", index: 0, prior: prior).name == "photo.png")
        #expect(
            try claim(&claims, "https://a.com/photo.original.png", index: 1, prior: prior).name
                == "photo.original-2.png")
        // The other order: the second item's original would be the first one's file.
        var reversed = FileNameClaims(template: nil, keepsOriginal: true)
        #expect(
            try claim(&reversed, "https://a.com/photo.original.png", index: 0, prior: prior).name
                == "photo.original.png")
        #expect(try claim(&reversed, "https://a.com/photo.png", index: 1, prior: prior).name == "photo-2.png")
    }
}
