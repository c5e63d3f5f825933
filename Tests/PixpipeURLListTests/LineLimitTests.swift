import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("URL lists: long lines, chunk boundaries and hostile bytes")
struct LineLimitTests {
    @Test("A line over the limit is one error; the lines around it are read")
    func longLine() {
        let long = "https://e.com/" + String(repeating: "a", count: 300_000)
        let text = "https://e.com/1.png\n\(long)\nhttps://e.com/2.png\n"
        #expect(outcomes(text) == ["1: https://e.com/1.png", "2: line-too-long", "3: https://e.com/2.png"])
    }

    @Test("A last line over the limit without a line break is one error")
    func longLastLine() {
        let text = "https://e.com/1.png\n" + String(repeating: "b", count: 400_000)
        #expect(outcomes(text) == ["1: https://e.com/1.png", "2: line-too-long"])
    }

    @Test("Lines spanning chunk boundaries are read whole, numbered in order")
    func chunkBoundaries() {
        let urls = (0..<20_000).map { "https://e.com/image-\($0).png" }
        let elements = URLList(bytes: Array(urls.joined(separator: "\n").utf8)).map { try? $0.get() }
        #expect(elements.count == urls.count)
        #expect(elements.compactMap { $0?.url.absoluteString } == urls)
        #expect(elements.last??.line == urls.count)
    }

    @Test("A file is read again from the start by each iteration")
    func fileIteration() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-list-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("https://e.com/a.png\nhttps://e.com/b.png\n".utf8).write(to: url)
        let list = URLList(path: url.path)
        #expect(list.map { (try? $0.get())?.line } == [1, 2])
        #expect(list.map { (try? $0.get())?.line } == [1, 2])
    }

    @Test(
        "Arbitrary bytes never trap and every error carries a line",
        arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomBytes(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("\",\t\n\r{}[]:#\\ hurl=name/.ftps%\u{00}\u{FF}".utf8) + [0xC3, 0xA9, 0xF0]
        for format in [nil] + URLListFormat.allCases.map(Optional.some) {
            let bytes = (0..<4_000).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            for element in URLList(source: .bytes(bytes), format: format, maximumLineBytes: 64) {
                if case .failure(let error) = element { #expect(error.line != nil) }
            }
        }
    }
}
