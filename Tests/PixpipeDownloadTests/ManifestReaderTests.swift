import Foundation
import Testing

@testable import Pixpipe

/// The resumed batch's manifest reading: the hand parser against `JSONDecoder`, and a long manifest.
@Suite("Manifest reading")
struct ManifestReaderTests {
    /// What reading `line` gives: the hand parser's fields, else `JSONDecoder`'s, else `nil`.
    private func read(_ line: String) -> ManifestLine? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBytes { ManifestReader.parse($0, decoder: JSONDecoder()) }
    }

    /// What `JSONDecoder` alone gives for `line`, as the reader did before the hand parser.
    private func decoded(_ line: String) -> ManifestLine? {
        (try? JSONDecoder().decode(ManifestRecord.self, from: Data(line.utf8))).map(ManifestLine.init)
    }

    @Test("Every line the writer makes is read by hand, to the fields JSONDecoder reads")
    func writerLines() throws {
        var records = ManifestLineTests.records
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<30, using: &generator) {
                let value = [UInt32.random(in: 0..<0x80), .random(in: 0x80..<0xD800), .random(in: 0x1_0000..<0x1_0FFF)]
                    .randomElement(using: &generator)!
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            }
            records.append(
                ManifestRecord(
                    url: text, name: text, status: .ok, httpStatus: 200, bytes: 12, sha256: text, attempts: 1,
                    elapsed: Double.random(in: 0..<1e-3, using: &generator), error: text, errorKind: text,
                    warnings: [text], etag: text, lastModified: text))
        }
        for record in records {
            let line = record.jsonLine.dropLast()
            let byHand = line.withUnsafeBytes { ManifestLine(bytes: $0) }
            #expect(byHand == ManifestLine(record), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test(
        "Lines the hand parser does not vouch for read as JSONDecoder reads them",
        arguments: [
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,"extra":{"x":[1,2]}}"#,
            #"{"url":"a","url":"b","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"u\u0072l":"a","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1.0,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1e0,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1}"#,
            #"{"url":"a","status":"ok","attempts":null,"elapsed":0.5}"#,
            #"{"url":null,"status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"a","status":"done","attempts":1,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":"0.5"}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,"name":null,"sha256":null}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,"bytes":"12"}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,"warnings":["x",1]}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,"warnings":[]}"#,
            #"{"url":"\ud83c\udfa8 \u00e9 \/ \b\f","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"\ud83c","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"\udfa8x","status":"ok","attempts":1,"elapsed":0.5}"#,
            #"{"url":"a\q","status":"ok","attempts":1,"elapsed":0.5}"#,
            #" { "url" : "a" , "status" : "failed" , "attempts" : 0 , "elapsed" : -0.0 } "#,
            #"{"url":"a","status":"ok","attempts":01,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":.5}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5}x"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5"#,
            #"{"url":"a","status":"ok","attempts":99999999999999999999,"elapsed":0.5}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":0.5,}"#,
            #"{"url":"a","status":"ok","attempts":1,"elapsed":1e999}"#,
            #"["url"]"#,
            "{\"url\":\"a\tb\",\"status\":\"ok\",\"attempts\":1,\"elapsed\":0.5}",
            "",
        ])
    func sameAsDecoder(line: String) {
        #expect(read(line) == decoded(line))
    }

    @Test("Invalid UTF-8 in a string reads as JSONDecoder reads it")
    func invalidUTF8() {
        var bytes = Array(#"{"url":"a"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"","status":"ok","attempts":1,"elapsed":0.5}"#.utf8)
        let byReader = bytes.withUnsafeBytes { ManifestReader.parse($0, decoder: JSONDecoder()) }
        let byDecoder = (try? JSONDecoder().decode(ManifestRecord.self, from: Data(bytes))).map(ManifestLine.init)
        #expect(byReader == byDecoder)
    }

    @Test("A 20,000-line manifest is read quickly, every URL indexed, the torn tail cut")
    func longManifest() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let count = 20_000
        var data = Data()
        data.reserveCapacity(count * 260)
        for index in 0..<count {
            let record = ManifestRecord(
                url: "http://127.0.0.1:8080/scale/\(index)-t\(index % 300).jpg", name: "\(index)-t\(index % 300).jpg",
                status: index % 10 == 0 ? .failed : .ok, httpStatus: 200, bytes: 1_500,
                sha256: String(repeating: "0123456789abcdef", count: 4), width: 64, height: 48, format: "jpeg",
                attempts: 1, elapsed: 0.003_21, errorKind: index % 10 == 0 ? "http-status" : nil)
            data.append(record.jsonLine)
        }
        let complete = data.count
        data.append(contentsOf: Array(#"{"url":"http://torn"#.utf8))
        let path = folder.url.appendingPathComponent("manifest.jsonl")
        try data.write(to: path)

        let clock = ContinuousClock()
        let started = clock.now
        let (_, prior) = try ManifestStore.open(named: "manifest.jsonl", in: folder.url, readsPrior: true)
        let elapsed = clock.now - started
        #expect(elapsed < Self.longManifestLimit, "read \(count) lines in \(elapsed)")
        #expect(prior.count == count)
        let tenth = try #require(prior[URLFingerprint(absoluteString: "http://127.0.0.1:8080/scale/10-t10.jpg")])
        // An `http-status` failure is the item's own, not the run's.
        #expect(tenth.outcome == .failedItem && tenth.name == Array("10-t10.jpg".utf8))
        let other = try #require(prior[URLFingerprint(absoluteString: "http://127.0.0.1:8080/scale/7-t7.jpg")])
        // The 64 hex digits, read as the 32 bytes they spell.
        #expect(
            other.outcome == .ok
                && other.sha256
                    == PriorIndex.SHA256Bytes(
                        bytes: Array(0..<32).map { [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef][$0 % 8] })
        )
        #expect(other.bytes == 1_500)
        #expect((try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int) == complete)
    }

    @Test("Lines parsed on several lanes come in the file's order, as one lane reads them, over chunk boundaries")
    func lanesKeepOrder() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        var data = Data()
        var expected: [String] = []
        for index in 0..<12_000 {
            // A torn or foreign line now and then (skipped), one line longer than a chunk, the same URL twice.
            if index % 97 == 5 {
                data.append(contentsOf: Array("{\"url\":\"torn\n".utf8))
                continue
            }
            let url = index == 11_000 ? "http://e.com/3" : "http://e.com/\(index)"
            // Nearly as long as a line may be: it spans a chunk's end.
            let error = index == 7_000 ? String(repeating: "x", count: ManifestReader.maxLineBytes - 200) : nil
            data.append(ManifestRecord(url: url, status: .failed, attempts: 1, error: error).jsonLine)
            expected.append(url)
        }
        let path = folder.url.appendingPathComponent("manifest.jsonl")
        try data.write(to: path)
        let descriptor = open(path.path, O_RDONLY)
        defer { close(descriptor) }
        for lanes in [1, 2, 3] {
            var urls: [String] = []
            let length = ManifestReader.forEachLine(in: descriptor, lanes: lanes, prepare: { $0.url }) { url, _ in
                urls.append(url)
            }
            #expect(urls == expected, "lanes: \(lanes)")
            #expect(length == data.count)
        }
    }

    /// A debug build is tens of times slower than release here (each line's URL is hashed by the debug
    /// SHA-256: 200,000 lines took 52 s on a busy machine, hence 20,000 lines), and a sanitizer several
    /// times more (`scripts/test --sanitize` sets `PIXPIPE_SANITIZER`).
    static let longManifestLimit: Duration =
        ProcessInfo.processInfo.environment["PIXPIPE_SANITIZER"] == nil ? .seconds(20) : .seconds(120)
}
