import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("URL lists compressed with gzip")
struct GzipListTests {
    /// `bytes` gzip-compressed by Python's `gzip` module (the test target links no compressor of its own).
    static func gzip(_ bytes: Data) throws -> Data {
        try python("import gzip, sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", input: bytes)
    }

    static func python(_ script: String, input: Data = Data()) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Written from another thread: the child may fill its output pipe before it has read all its input.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return output
    }

    static func entries(_ list: URLList) -> [String] {
        list.compactMap { element -> String? in
            guard case .success(let entry) = element else { return nil }
            return entry.url.absoluteString + (entry.name.map { " " + $0 } ?? "")
        }
    }

    @Test(
        "each list format, gzip-compressed, reads as its plain text does, from a file and from memory",
        arguments: [
            "https://e.com/a.png\n# comment\nhttps://e.com/b.png\n",
            "url,name\nhttps://e.com/a.png,first\nhttps://e.com/b.png,second\n",
            "url\tname\nhttps://e.com/a.png\tfirst\nhttps://e.com/b.png\tsecond\n",
            "{\"url\":\"https://e.com/a.png\",\"name\":\"first\"}\n{\"url\":\"https://e.com/b.png\"}\n",
        ])
    func formats(text: String) throws {
        let compressed = try Self.gzip(Data(text.utf8))
        #expect(compressed.prefix(2) == Data([0x1f, 0x8b]))
        let plain = Self.entries(URLList(bytes: Array(text.utf8)))
        #expect(plain.count == 2)
        #expect(Self.entries(URLList(bytes: Array(compressed))) == plain)
        // Named without .gz: the bytes decide.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-gzip-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try compressed.write(to: file)
        #expect(Self.entries(URLList(path: file.path)) == plain)
    }

    @Test("a list bigger than one read chunk decompresses whole, across chunk boundaries")
    func manyLines() throws {
        let text = (0..<20_000).map { "https://e.com/\($0).png\n" }.joined()
        let compressed = try Self.gzip(Data(text.utf8))
        let entries = Self.entries(URLList(bytes: Array(compressed)))
        #expect(entries.count == 20_000 && entries.last == "https://e.com/19999.png")
    }

    @Test("past maximumDecompressedBytes the list ends with list-too-large")
    func limit() throws {
        let text = (0..<5_000).map { "https://e.com/\($0).png\n" }.joined()
        var list = URLList(bytes: Array(try Self.gzip(Data(text.utf8))))
        list.maximumDecompressedBytes = 10_000
        let errors = list.compactMap { element -> URLListError? in
            guard case .failure(let error) = element else { return nil }
            return error
        }
        #expect(errors == [.decompressedTooLarge(limit: 10_000)])
        #expect(errors.first?.shortName == "list-too-large")
        #expect(Self.entries(list).count < 5_000)
    }

    @Test("a gzip bomb (200 MB of line feeds in 200 KB) is refused by its ratio, with the default limit")
    func bomb() throws {
        let bomb = try Self.python(
            "import gzip, sys; sys.stdout.buffer.write(gzip.compress(b'\\n' * 200_000_000, 9))")
        #expect(bomb.count < 1_000_000)
        var sawError = false
        for element in URLList(bytes: Array(bomb)) {
            if case .failure(let error) = element {
                #expect(error == .decompressedTooLarge(limit: URLList(bytes: []).maximumDecompressedBytes))
                sawError = true
            }
        }
        #expect(sawError)
    }

    @Test("damaged gzip data ends the list with unreadable-list")
    func damaged() throws {
        var compressed = Array(try Self.gzip(Data("https://e.com/a.png\n".utf8)))
        compressed.removeLast(10)
        compressed[12] ^= 0xFF
        let errors = URLList(bytes: compressed).compactMap { element -> URLListError? in
            guard case .failure(let error) = element else { return nil }
            return error
        }
        #expect(errors.count == 1 && errors.first?.shortName == "unreadable-list")
    }
}
