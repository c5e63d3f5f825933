import Foundation
import PixpipeLocking
import Testing

@testable import Pixpipe

/// ``AtomicFileWriter/writeNew(_:to:flushes:method:)``: a new file gets its name only if nothing has it,
/// by both ways a file gets its name.
@Suite("Atomic file writer: publishing without replacing")
struct AtomicFileWriterNoReplaceTests {
    static let methods: [AtomicFileWriter.Method] = [.automatic, .temporaryName]

    @Test("A free name gets the bytes; nothing else is left", arguments: methods)
    func freeName(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        #expect(try AtomicFileWriter.writeNew(Data([1, 2]), to: folder.url.path + "/a.bin", method: method))
        #expect(folder.contents("a.bin") == [1, 2])
        #expect(folder.names() == ["a.bin"])
    }

    @Test("A file, a link or a folder under the name is left exactly as it was", arguments: methods)
    func takenName(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.path
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path + "/file.bin"))
        try FileManager.default.createSymbolicLink(atPath: path + "/link.bin", withDestinationPath: "file.bin")
        try FileManager.default.createSymbolicLink(atPath: path + "/dangling.bin", withDestinationPath: "nowhere")
        try FileManager.default.createDirectory(atPath: path + "/folder.bin", withIntermediateDirectories: false)
        for name in ["file.bin", "link.bin", "dangling.bin", "folder.bin"] {
            #expect(try !AtomicFileWriter.writeNew(Data("mine".utf8), to: path + "/" + name, method: method))
        }
        #expect(folder.contents("file.bin") == Array("theirs".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path + "/dangling.bin") == "nowhere")
        #expect(!FileManager.default.fileExists(atPath: path + "/nowhere"))
        #expect(folder.names() == ["dangling.bin", "file.bin", "folder.bin", "link.bin"])
    }

    @Test("Writers racing for one name: exactly one gets it, its bytes whole", arguments: methods)
    func race(method: AtomicFileWriter.Method) async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.path + "/race.bin"
        let won = await withTaskGroup(of: (Int, Bool).self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let data = Data(repeating: UInt8(writer), count: 64 << 10)
                    return (
                        writer,
                        (try? AtomicFileWriter.writeNew(data, to: path, flushes: false, method: method)) ?? false
                    )
                }
            }
            var winners: [Int] = []
            for await (writer, wrote) in group where wrote { winners.append(writer) }
            return winners
        }
        #expect(won.count == 1)
        let winner = try #require(won.first)
        #expect(folder.contents("race.bin") == Array(repeating: UInt8(winner), count: 64 << 10))
        #expect(folder.names() == ["race.bin"])
    }
}
