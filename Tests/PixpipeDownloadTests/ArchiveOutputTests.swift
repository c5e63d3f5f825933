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
        #expect(folder.manifest().map(\.archive) == ["00000.tar", "00000.tar", "00001.tar"])
        #expect(folder.manifest().allSatisfy { $0.recipe == options.recipe && $0.format == "jpeg" })
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
