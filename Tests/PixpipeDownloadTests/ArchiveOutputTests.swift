import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// ``DownloadOptions/archive`` through the library: events, summary and manifest as a program sees them.
@Suite("Downloader archive outputs", .serialized)
struct ArchiveOutputTests {
    /// The member names of the tar at `path`, read by Python's `tarfile`.
    static func tarMembers(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import sys, tarfile; print('\\n'.join(tarfile.open(sys.argv[1]).getnames()))", path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("webDataset with thumbnails: KEY.jpg and KEY.json per item, events with list indices, a duplicate skipped")
    func webDatasetThumbnails() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        for number in 0..<3 { server.route("/\(number).png", .respond(body: Bodies.png(seed: number))) }
        var options = testOptions(folder)
        options.archive = .webDataset(shardSize: 2)
        options.processing = [.thumbnail(ThumbnailOptions(size: .box(4)))]
        options.outputEncoding = .jpeg(quality: 80)
        let items = [0, 1, 0, 2].map { DownloadItem(url: server.url("/\($0).png")) }
        let events = await collectEvents(Downloader(options: options), items)
        let final = try #require(summary(events))
        #expect(final.ok == 3 && final.skippedByReason == ["duplicate": 1] && final.stopReason == nil)
        let finished = records(events)
        #expect(finished[0]?.archive == "00000.tar" && finished[0]?.name == "000000001.jpg")
        #expect(finished[2]?.errorKind == "duplicate")
        #expect(finished[3]?.archive == "00001.tar" && finished[3]?.name == "000000004.jpg")
        #expect(
            try Self.tarMembers(folder.url.appendingPathComponent("00000.tar").path)
                == ["000000001.jpg", "000000001.json", "000000002.jpg", "000000002.json"])
        #expect(
            try Self.tarMembers(folder.url.appendingPathComponent("00001.tar").path)
                == ["000000004.jpg", "000000004.json"])
        // Shards overlap, so the one settled first is recorded first.
        #expect(folder.manifest().compactMap(\.archive).sorted() == ["00000.tar", "00000.tar", "00001.tar"])
        #expect(folder.manifest().allSatisfy { $0.recipe == options.recipe && $0.format == "jpeg" })
    }

    @Test("webDataset: a shard is packed while an earlier one still waits; a rerun redoes that one alone")
    func shardsOverlap() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        for number in 1...4 { server.route("/\(number).png", .respond(body: Bodies.png(seed: number))) }
        server.route("/stall.png", .delayHeaders(seconds: 600, then: .respond(body: [])))
        var options = testOptions(folder)
        options.timeout = .seconds(600)
        options.archive = .webDataset(shardSize: 2)
        // Shards of 2: [1, stall] [2, 3] [4].
        let paths = ["/1.png", "/stall.png", "/2.png", "/3.png", "/4.png"]
        let items = paths.map { DownloadItem(url: server.url($0)) }
        let events = Downloader(options: options).run(items)
        var packed: [Int: ManifestRecord] = [:]
        var final: DownloadSummary?
        for await event in events {
            switch event {
            case .finished(let index, let record):
                packed[index] = record
                // The stalled item never answers: shards 1 and 2 are packed without waiting for it.
                if Set(packed.keys) == [2, 3, 4] { events.cancel() }
            case .stopped(let summary): final = summary
            default: break
            }
        }
        #expect(final?.stopReason == .cancelled)
        #expect(packed[2]?.archive == "00001.tar" && packed[4]?.archive == "00002.tar")
        #expect(packed[0] == nil && packed[1] == nil, "the first shard is not settled")
        #expect(folder.names().filter { $0.hasSuffix(".tar") } == ["00001.tar", "00002.tar"])
        #expect(
            try Self.tarMembers(folder.url.appendingPathComponent("00001.tar").path)
                == ["000000003.png", "000000003.json", "000000004.png", "000000004.json"])
        #expect(Set(folder.manifest().map(\.archive)) == ["00001.tar", "00002.tar"])

        server.route("/stall.png", .respond(body: Bodies.png(seed: 9)))
        let rerun = await collectEvents(Downloader(options: options), items)
        let again = try #require(summary(rerun))
        #expect(again.ok == 2 && again.skippedByReason == ["already-done": 3] && again.stopReason == nil)
        for path in ["/2.png", "/3.png", "/4.png"] { #expect(server.requestCount(path) == 1, "\(path)") }
        #expect(
            try Self.tarMembers(folder.url.appendingPathComponent("00000.tar").path)
                == ["000000001.png", "000000001.json", "000000002.png", "000000002.json"])
        #expect(folder.manifest().count == 5)
        #expect(!folder.names().contains(".pixpipe-staging"))
    }

    @Test("webDataset: a shard with no item stored gets no tar, is recorded finished, and keeps the numbering")
    func emptyShard() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        for number in 1...3 { server.route("/\(number).png", .respond(body: Bodies.png(seed: number))) }
        server.route("/gone-a.png", .respond(status: 404, body: Array("no".utf8)))
        server.route("/gone-b.png", .respond(status: 404, body: Array("no".utf8)))
        var options = testOptions(folder)
        options.archive = .webDataset(shardSize: 2)
        // Shards of 2: [1, 2] [gone-a, gone-b] [3].
        let items = ["/1.png", "/2.png", "/gone-a.png", "/gone-b.png", "/3.png"].map {
            DownloadItem(url: server.url($0))
        }
        let first = try #require(summary(await collectEvents(Downloader(options: options), items)))
        #expect(first.ok == 3 && first.failed == 2)
        #expect(folder.names().filter { $0.hasSuffix(".tar") } == ["00000.tar", "00002.tar"])
        let failed = folder.manifest().filter { $0.status == .failed }
        #expect(failed.count == 2 && failed.allSatisfy { $0.archive == "00001.tar" && $0.name == nil })

        let rerun = try #require(summary(await collectEvents(Downloader(options: options), items)))
        #expect(rerun.skippedByReason == ["already-done": 3, "already-failed": 2])
        #expect(server.requestCount("/gone-a.png") == 1 && server.requestCount("/gone-b.png") == 1)
        #expect(folder.manifest().count == 5)
    }

    @Test("webDataset with keepsOriginal: KEY.original.EXT beside the thumbnail in the item's sample")
    func webDatasetKeepsOriginal() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        for number in 0..<2 { server.route("/\(number).png", .respond(body: Bodies.png(seed: number))) }
        var options = testOptions(folder)
        options.archive = .webDataset(shardSize: 5)
        options.processing = [.thumbnail(ThumbnailOptions(size: .box(4)))]
        options.outputEncoding = .jpeg(quality: 80)
        options.keepsOriginal = true
        let items = (0..<2).map { DownloadItem(url: server.url("/\($0).png")) }
        let final = try #require(summary(await collectEvents(Downloader(options: options), items)))
        #expect(final.ok == 2)
        #expect(
            try Self.tarMembers(folder.url.appendingPathComponent("00000.tar").path) == [
                "000000001.jpg", "000000001.original.png", "000000001.json",
                "000000002.jpg", "000000002.original.png", "000000002.json",
            ])
        #expect(folder.names() == ["00000.tar", "manifest.jsonl"])
    }

    @Test("ComicBook.write: pages named by place, ComicInfo.xml escaped, nothing left but the book")
    func comicBook() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        var book = ComicBook(series: "A & B", number: "7", title: "<x>")
        book.pages = (0..<2).map { ComicBook.Page(bytes: Data(Bodies.png(seed: $0)), fileExtension: "png") }
        try book.write(to: folder.url.appendingPathComponent("b.cbz"))
        #expect(folder.names() == ["b.cbz"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.namelist()); print(z.read('ComicInfo.xml').decode())",
            folder.url.appendingPathComponent("b.cbz").path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("['001.png', '002.png', 'ComicInfo.xml']"))
        #expect(text.contains("<Series>A &amp; B</Series>") && text.contains("<Title>&lt;x&gt;</Title>"))
        #expect(text.contains("<Number>7</Number>") && text.contains("<PageCount>2</PageCount>"))
    }
}
