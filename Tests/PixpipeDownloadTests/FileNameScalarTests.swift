import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Names are checked per Unicode scalar: what a file system and a terminal see, not what a `Character` is.
@Suite("File names per scalar")
struct FileNameScalarTests {
    @Test(
        "A dot followed by combining marks still counts as a leading dot",
        arguments: [".\u{301}x", "..\u{301}x", ". \u{301}x", ".\u{301}\u{302}", "\u{2028}.\u{301}x", " .\u{301}x"])
    func combiningLeadingDot(raw: String) {
        let name = FileNameSanitizer.sanitize(raw)
        #expect(name.utf8.first != UInt8(ascii: "."), "\(name.unicodeScalars.map { $0.value })")
    }

    @Test(
        "Bidirectional controls, separators and other format or control scalars are replaced or dropped",
        arguments: [
            ("evil\u{202E}gnp.exe", "evil_gnp.exe"), ("a\u{202A}b\u{202B}c\u{202C}d\u{202D}e", "a_b_c_d_e"),
            ("a\u{2066}b\u{2067}c\u{2068}d\u{2069}e", "a_b_c_d_e"), ("a\u{200E}b\u{200F}c\u{61C}d", "a_b_c_d"),
            ("line\u{2028}two\u{2029}three", "line_two_three"), ("c1\u{85}\u{9B}x", "c1__x"),
            ("soft\u{AD}hyphen\u{FEFF}", "softhyphen"), ("zero\u{200B}width\u{2060}", "zerowidth"),
            ("family\u{1F468}\u{200D}\u{1F469}", "family\u{1F468}\u{200D}\u{1F469}"), ("tab\there", "tab_here"),
        ])
    func formatScalars(raw: String, expected: String) {
        #expect(FileNameSanitizer.sanitize(raw) == expected)
    }

    @Test("No scalar of a general category that can hide or reorder text survives")
    func noHiddenScalars() {
        let samples = (0x00...0x3000).compactMap(Unicode.Scalar.init).map { "a\($0)b" }
        for raw in samples {
            let name = FileNameSanitizer.sanitize(raw)
            let bad = name.unicodeScalars.first { scalar in
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator: true
                case .format: scalar.value != 0x200C && scalar.value != 0x200D
                default: false
                }
            }
            #expect(bad == nil, "\(raw.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("The byte path agrees with the general path on every short name of plain bytes")
    func plainPathAgrees() {
        let alphabet = Array("a.Z9-_~".utf8)
        var names: [[UInt8]] = []
        var generation: [[UInt8]] = [[]]
        for _ in 0..<5 {
            generation = generation.flatMap { name in alphabet.map { name + [$0] } }
            names += generation
        }
        var plain = 0
        for name in names {
            guard let fast = FileNameSanitizer.plainStem(of: ArraySlice(name)) else { continue }
            plain += 1
            let text = String(decoding: name, as: UTF8.self)
            let general = FileNameSanitizer.sanitize(
                FileNameSanitizer.stem(of: FileNameSanitizer.sanitize(text, limit: .max)))
            #expect(fast == general, "\(text)")
        }
        #expect(plain > 500)
    }

    @Test("A fetched URL whose name starts with a dot and a combining mark, or hides a U+202E, is stored visible")
    func fetchedHostileNames() async throws {
        let server = try TestHTTPServer()
        server.route("/%2E%CC%81x.png", .respond(body: Bodies.png(seed: 1)))
        server.route("/evil%E2%80%AEgnp.png", .respond(body: Bodies.png(seed: 2)))
        let folder = TemporaryFolder()
        let items = [
            DownloadItem(url: server.url("/%2E%CC%81x.png")), DownloadItem(url: server.url("/evil%E2%80%AEgnp.png")),
        ]
        let result = await Downloader(options: testOptions(folder)).download(items)
        #expect(result.ok == 2)
        #expect(folder.names() == ["\u{301}x.png", "evil_gnp.png", "manifest.jsonl"].sorted())
        #expect(folder.contents("\u{301}x.png") == Bodies.png(seed: 1))
        #expect(folder.contents("evil_gnp.png") == Bodies.png(seed: 2))
    }
}
