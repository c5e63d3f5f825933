import Foundation
import PixpipeLocking
import Testing

@testable import Pixpipe

/// The manifest's hand-built JSON lines against Foundation's encoder and decoder.
@Suite("Manifest lines")
struct ManifestLineTests {
    static let records: [ManifestRecord] = [
        ManifestRecord(url: "https://example.com/a.png", status: .skipped),
        ManifestRecord(
            url: "https://example.com/dir/a.png?x=1&y=\"2\"", name: "a.png", status: .ok, httpStatus: 200,
            bytes: 1234, sha256: String(repeating: "ab", count: 32), width: 640, height: 480, format: "png",
            attempts: 2, elapsed: 0.012_345_678_9),
        ManifestRecord(
            url: "http://h/\u{1}\u{1F}\u{7F}", status: .failed, httpStatus: 503, attempts: 3, elapsed: 1e-05,
            error: "line one\nline two\twith \\ backslash and \"quotes\"\r\u{8}\u{C}", errorKind: "http-status"),
        ManifestRecord(url: "https://例え.jp/画像.jpg", name: "画像 🎨.jpg", status: .ok, elapsed: 1.0),
        ManifestRecord(
            url: "https://example.com/c.png", name: "c.png", status: .ok, httpStatus: 200, bytes: 10,
            sha256: String(repeating: "cd", count: 32), attempts: 1, elapsed: 0.25, etag: "W/\"5f-\\\"x\"",
            lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
        ManifestRecord(
            url: "https://example.com/c.png", name: "c.png", status: .unchanged, httpStatus: 304, bytes: 10,
            sha256: String(repeating: "cd", count: 32), attempts: 1, elapsed: 0.01, etag: "\"v1\""),
        ManifestRecord(
            url: "https://example.com/d.png", name: "d.png", status: .gone, httpStatus: 410, bytes: 10,
            sha256: String(repeating: "ef", count: 32), attempts: 1, elapsed: 0.01, error: "gone"),
        ManifestRecord(
            url: "https://example.com/e.png", name: "e.png", status: .failed, httpStatus: 500, bytes: 10,
            sha256: String(repeating: "01", count: 32), attempts: 3, elapsed: 0.5, error: "HTTP 500",
            errorKind: "http-status", lastModified: "Thu, 01 Jan 1970 00:00:00 GMT"),
        ManifestRecord(
            url: "https://example.com/w.jpg", name: "w.jpg", status: .ok, attempts: 1, elapsed: 0.5,
            warnings: [
                "jpeg-extraneous-bytes: Corrupt JPEG data: 5 extraneous bytes before marker 0xdb",
                "jpeg-bad-icc-marker: \"quoted\"\n",
            ]),
    ]

    @Test("The validators come after every older key, in the order etag, lastModified")
    func validatorKeysLast() throws {
        let record = try #require(Self.records.first { $0.etag != nil && $0.lastModified != nil })
        var withWarnings = record
        withWarnings.warnings = ["png-ancillary-chunk: x"]
        let line = String(decoding: withWarnings.jsonLine, as: UTF8.self)
        let order = ["\"errorKind\"", "\"warnings\"", "\"etag\"", "\"lastModified\""].compactMap {
            line.range(of: $0)?.lowerBound
        }
        #expect(order.count == 3 && order == order.sorted())
        #expect(line.hasSuffix("\"lastModified\":\"Wed, 21 Oct 2015 07:28:00 GMT\"}\n"))
    }

    @Test("Warnings come last, and are left out when empty")
    func warningsKey() throws {
        let line = String(decoding: try #require(Self.records.last).jsonLine, as: UTF8.self)
        #expect(line.hasSuffix("\"errorKind\"") == false)
        #expect(line.contains(",\"warnings\":[\"jpeg-extraneous-bytes: "))
        #expect(line.hasSuffix("]}\n"))
        let empty = ManifestRecord(url: "https://example.com/a.png", status: .ok, warnings: [])
        #expect(empty.warnings == nil)
        #expect(!String(decoding: empty.jsonLine, as: UTF8.self).contains("warnings"))
        #expect(try JSONDecoder().decode(ManifestRecord.self, from: empty.jsonLine) == empty)
    }

    @Test("Each line decodes to the record it was made from", arguments: records)
    func roundTrip(record: ManifestRecord) throws {
        let line = record.jsonLine
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(try JSONDecoder().decode(ManifestRecord.self, from: line) == record)
    }

    @Test("Each line is the object JSONEncoder writes", arguments: records)
    func sameObjectAsJSONEncoder(record: ManifestRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let ours = try #require(try JSONSerialization.jsonObject(with: record.jsonLine) as? NSDictionary)
        let theirs = try #require(try JSONSerialization.jsonObject(with: encoder.encode(record)) as? NSDictionary)
        #expect(ours == theirs)
    }

    @Test("Arbitrary text survives, control characters included")
    func arbitraryText() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 0..<40, using: &generator)).compactMap { _ -> Unicode.Scalar? in
                let pick = Int.random(in: 0..<4, using: &generator)
                let value: UInt32 =
                    pick == 0
                    ? UInt32.random(in: 0..<0x20, using: &generator)
                    : pick == 1
                        ? UInt32.random(in: 0x20..<0x80, using: &generator)
                        : pick == 2
                            ? UInt32.random(in: 0x80..<0xD800, using: &generator)
                            : UInt32.random(in: 0x1_0000..<0x1_0FFF, using: &generator)
                return Unicode.Scalar(value)
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let record = ManifestRecord(url: text, name: text, status: .failed, error: text, errorKind: text)
            #expect(try JSONDecoder().decode(ManifestRecord.self, from: record.jsonLine) == record)
        }
    }

    @Test("No scalar a terminal would obey is written raw: DEL, C1, bidi controls and separators are escaped")
    func terminalControlsEscaped() throws {
        let text = "a\u{7F}b\u{9B}31mc\u{202E}gnp.exe\u{2028}d\u{2066}e\u{85}é🎨"
        let record = ManifestRecord(url: "https://example.com/" + text, name: "x.png", status: .failed, error: text)
        let line = try #require(String(data: record.jsonLine, encoding: .utf8))
        #expect(!line.dropLast().unicodeScalars.contains { UntrustedText.needsEscape($0) })
        #expect(line.contains("\\u009b") && line.contains("\\u202e") && line.contains("é🎨"))
        #expect(try JSONDecoder().decode(ManifestRecord.self, from: record.jsonLine) == record)
    }
}
