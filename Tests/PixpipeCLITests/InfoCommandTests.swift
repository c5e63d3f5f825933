import Foundation
import Testing

@Suite("pixpipe info: failures")
struct InfoCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// Parses one JSON Lines record.
    private func record(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("Files that fail are JSON records with error and errorKind; the others go on; status 1")
    func failuresAsRecords() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write(Data("not an image".utf8), to: "notes.txt")
        let missing = directory.path("missing.png")
        // Standard input holds bytes of no format in the codec table (a GIF signature now sniffs as GIF).
        let result = try pixpipe.run(["info", "--json", text, missing, "-"], input: Data("PK\u{3}\u{4}zip".utf8))
        #expect(result.status == 1)
        let records = try result.outputLines.map(record)
        #expect(records.count == 3)
        #expect(records.map { $0["path"] as? String } == [text, missing, "-"])
        #expect(records.map { $0["errorKind"] as? String } == ["not-an-image", "unreadable-file", "not-an-image"])
        #expect(records.allSatisfy { ($0["error"] as? String)?.isEmpty == false })
        #expect(result.errors.contains("pixpipe: info: \(text): text file, not an image"))
        #expect(result.errors.contains("pixpipe: info: \(missing): "))
    }

    @Test("Without --json, failures go to stderr only")
    func failuresHuman() throws {
        let directory = try TemporaryDirectory()
        let empty = try directory.write(Data(), to: "empty.png")
        let result = try pixpipe.run(["info", empty])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("pixpipe: info: \(empty): "))
    }
}
