import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Resume checks: stored files read on lanes, skips in list order", .serialized)
struct ResumeCheckTests {
    @Test("A resume over more items than one check batch skips unchanged files in list order, redoes changed ones")
    func manyItems() async throws {
        let server = try TestHTTPServer()
        let count = PendingChecks.batchSize * 2 + 44
        let items = (0..<count).map { number in
            server.route("/img\(number).png", .respond(body: Bodies.png(seed: number)))
            return DownloadItem(url: server.url("/img\(number).png"))
        }
        let folder = TemporaryFolder()
        let first = await Downloader(options: testOptions(folder)).download(items)
        #expect(first.ok == count)

        // Each kind of change a check must see: a flipped byte (same size), one byte fewer, one more, gone.
        let changed = [10, 100, 200, count - 3]
        var flipped = try #require(folder.contents("img10.png"))
        flipped[flipped.count / 2] ^= 0xFF
        try Data(flipped).write(to: folder.url.appendingPathComponent("img10.png"))
        try Data(try #require(folder.contents("img100.png")).dropLast()).write(
            to: folder.url.appendingPathComponent("img100.png"))
        try Data(try #require(folder.contents("img200.png")) + [0]).write(
            to: folder.url.appendingPathComponent("img200.png"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("img\(count - 3).png"))
        let before = (0..<count).map { server.requestCount("/img\($0).png") }

        let events = await collectEvents(Downloader(options: testOptions(folder)), items)
        let after = (0..<count).map { server.requestCount("/img\($0).png") }
        #expect(zip(after, before).map { $0 - $1 } == (0..<count).map { changed.contains($0) ? 1 : 0 })
        #expect(summary(events).map { ($0.ok, $0.skipped, $0.failed) } ?? (0, 0, 0) == (4, count - 4, 0))
        var skippedIndices: [Int] = []
        for case .finished(let index, let record) in events where record.status == .skipped {
            #expect(record.errorKind == "already-done")
            skippedIndices.append(index)
        }
        #expect(skippedIndices == (0..<count).filter { !changed.contains($0) })
        for number in changed { #expect(folder.contents("img\(number).png") == Bodies.png(seed: number)) }
    }

    @Test("A stored file is read to its size and digest, over several reads for a large one")
    func readerDigest() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let small = Data((0..<1_500).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let large = Data((0..<(StoredFileReader.chunkSize * 2 + 77)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try small.write(to: folder.url.appendingPathComponent("small"))
        try large.write(to: folder.url.appendingPathComponent("large"))
        let directory = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(directory) }
        let reader = StoredFileReader()
        for (name, data) in [("small", small), ("large", large), ("small", small)] {
            let bytes = Array(name.utf8)
            for expected in [data.count, nil] {
                let result = try #require(reader.sizeAndDigest(named: bytes, expectedBytes: expected, in: directory))
                #expect(result.0 == data.count)
                #expect(result.1 == SHA256.hash(data))
            }
            #expect(reader.sizeAndDigest(named: bytes, expectedBytes: data.count - 1, in: directory) == nil)
            #expect(reader.sizeAndDigest(named: bytes, expectedBytes: data.count + 1, in: directory) == nil)
        }
        // A name no run writes (absolute, a path) is not a stored file, even when a file is there by that path.
        #expect(reader.sizeAndDigest(named: Array("//small".utf8), expectedBytes: small.count, in: directory) == nil)
        #expect(reader.sizeAndDigest(named: Array("./small".utf8), expectedBytes: small.count, in: directory) == nil)
        #expect(reader.sizeAndDigest(named: Array("missing".utf8), expectedBytes: nil, in: directory) == nil)
    }

    @Test("A FIFO or a folder under a stored file's name fails the check at once, without blocking")
    func readerSpecialFiles() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("dir"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.url.appendingPathComponent("fifo").path, 0o600) == 0)
        let directory = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(directory) }
        let reader = StoredFileReader()
        #expect(reader.sizeAndDigest(named: Array("fifo".utf8), expectedBytes: 0, in: directory) == nil)
        #expect(reader.sizeAndDigest(named: Array("dir".utf8), expectedBytes: nil, in: directory) == nil)
    }
}
