import Foundation
import Pixpipe
import Testing

@testable import PixpipeCLI

@Suite("Atomic file writer")
struct AtomicFileWriterTests {
    @Test("A new file has the bytes and no temporary file is left")
    func writesNewFile() throws {
        let directory = try TemporaryDirectory()
        try AtomicFileWriter.writeOutput(Data([1, 2, 3]), to: directory.path("out.bin"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("out.bin")) == Data([1, 2, 3]))
        #expect(try directory.fileNames() == ["out.bin"])
    }

    @Test("An existing file is replaced and keeps its permissions")
    func replacesKeepingMode() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Data("old".utf8), to: "out.bin")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try AtomicFileWriter.writeOutput(Data("new".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(try directory.fileNames() == ["out.bin"])
    }

    @Test("A missing directory is a typed error and creates nothing")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("missing/out.bin")
        #expect(throws: OutputWriteError.self) { try AtomicFileWriter.writeOutput(Data([1]), to: target) }
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("When the destination cannot be replaced, the temporary file is removed")
    func failedRenameCleansUp() throws {
        let directory = try TemporaryDirectory()
        // A non-empty directory cannot be replaced by a file: the rename fails after the data is written.
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("out.png/inner"), withIntermediateDirectories: true)
        let error = #expect(throws: OutputWriteError.self) {
            try AtomicFileWriter.writeOutput(Data([1, 2]), to: directory.path("out.png"))
        }
        guard case .renameFailed = error else {
            Issue.record("expected a rename failure, got \(String(describing: error))")
            return
        }
        #expect(try directory.fileNames() == ["out.png"])
    }
}
