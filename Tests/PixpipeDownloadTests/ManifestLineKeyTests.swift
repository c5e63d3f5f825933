import Foundation
import Testing

@testable import Pixpipe

/// The hand parser's key matching and text decoding, against `JSONDecoder`'s reading of the same lines.
@Suite("Manifest line keys and text")
struct ManifestLineKeyTests {
    private func byHand(_ line: String) -> ManifestLine? {
        Data(line.utf8).withUnsafeBytes { ManifestLine(bytes: $0) }
    }

    @Test("Every key's name matches that key and no other, and each key has a bit of its own")
    func everyKeyMatchesItself() {
        for key in ManifestKey.allCases {
            let name = Array(key.rawValue.utf8)
            #expect(name.withUnsafeBytes { ManifestKey.matching($0)?.key } == key)
            #expect(ManifestKey.allCases.filter { $0.bit == key.bit } == [key])
        }
    }

    @Test("The keys are declared once: the writer writes each in order, Codable uses them, the reader takes them")
    func keysDeclaredOnce() throws {
        let record = ManifestRecord(
            url: "http://e.com/a.jpg", name: "a.jpg", status: .ok, httpStatus: 200, bytes: 1500,
            sha256: String(repeating: "0f", count: 32), width: 64, height: 48, format: "jpeg", attempts: 1,
            elapsed: 0.5, error: "e", errorKind: "k", warnings: ["w"], etag: "\"e\"", lastModified: "never",
            recipe: "r", archive: "00000.tar")
        let line = String(decoding: record.jsonLine, as: UTF8.self)
        // Every declared key, in the declared order, and nothing else.
        var rest = line[...]
        for key in ManifestKey.allCases {
            let range = try #require(rest.range(of: "\"\(key.rawValue)\":"), "\(key) missing or out of order")
            rest = rest[range.upperBound...]
        }
        let written = try #require(try JSONSerialization.jsonObject(with: record.jsonLine) as? [String: Any])
        #expect(Set(written.keys) == Set(ManifestKey.allCases.map(\.rawValue)))
        // Codable writes and reads the same keys.
        let encoded = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        #expect(Set(encoded.keys) == Set(written.keys))
        #expect(try JSONDecoder().decode(ManifestRecord.self, from: record.jsonLine) == record)
        // The fast reader vouches for the whole line and keeps what it reads.
        let fast = try #require(record.jsonLine.withUnsafeBytes { ManifestLine(bytes: $0) })
        #expect(fast.url == record.url && fast.recipe == "r" && fast.etag == "\"e\"" && fast.bytes == 1500)
    }

    @Test(
        "A key that only resembles a record's key (same length or first byte) is not vouched for",
        arguments: ["urx", "uRl", "Url", "nam", "namex", "statue", "sha255", "bytez", "etagg", "lastmodified", "e"])
    func nearKeys(key: String) {
        let line = #"{"url":"http://e.com/a","status":"ok","attempts":1,"elapsed":0.5,"\#(key)":"x"}"#
        #expect(byHand(line) == nil)
    }

    @Test(
        "Every key of a record is matched, and ASCII and other text read as JSONDecoder reads it",
        arguments: [
            "http://127.0.0.1:9/scale/000001-t001.jpg", "https://例え.jp/画像.jpg", "http://e.com/caf\u{E9}",
            "http://e.com/\u{7F}~", "",
        ])
    func keysAndText(url: String) throws {
        let record = ManifestRecord(
            url: url, name: url.isEmpty ? nil : "n\(url.count).jpg", status: .ok, httpStatus: 200, bytes: 1500,
            sha256: String(repeating: "0f", count: 32), width: 64, height: 48, format: "jpeg", attempts: 1,
            elapsed: 0.012, error: "é", errorKind: "x", warnings: ["w"], etag: "\"e\"", lastModified: "never")
        let line = String(decoding: record.jsonLine, as: UTF8.self).trimmingCharacters(in: .newlines)
        let parsed = try #require(byHand(line))
        #expect(parsed == ManifestLine(record))
    }

    @Test(
        "A hash is read in place as the digest JSONDecoder's reading of the line spells, or as none",
        arguments: [
            String(repeating: "0f", count: 32), String(repeating: "A0", count: 32), String(repeating: "a", count: 63),
            String(repeating: "a", count: 65), String(repeating: "g", count: 64), "",
            "\\u0061" + String(repeating: "b", count: 63), String(repeating: "é", count: 32),
            String(repeating: "0", count: 62) + "\\n",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde/",
        ])
    func hashInPlace(sha256: String) throws {
        let line = #"{"url":"http://e.com/a","status":"ok","attempts":1,"elapsed":0.5,"sha256":"\#(sha256)"}"#
        let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line.utf8))
        let parsed = try #require(byHand(line))
        #expect(parsed == ManifestLine(record))
        #expect(parsed.sha256 == record.sha256.flatMap(PriorIndex.SHA256Bytes.init(hex:)))
    }
}
