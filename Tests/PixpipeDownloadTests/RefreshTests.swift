import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `DownloadOptions.refreshesStored` against the test server answering conditionally, counting requests.
@Suite("Refresh: revalidating stored items", .serialized)
struct RefreshTests {
    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    /// Serves `count` images with an ETag each (and a Last-Modified) and returns their items.
    private func serve(_ count: Int, on server: TestHTTPServer, version: Int = 1) -> [DownloadItem] {
        (0..<count).map { number in
            server.route(
                "/img\(number).png",
                .conditional(
                    body: Bodies.png(seed: number + 10 * (version - 1)), etag: "\"v\(version)-\(number)\"",
                    lastModified: Self.lastModified))
            return DownloadItem(url: server.url("/img\(number).png"))
        }
    }

    private func refreshOptions(_ folder: TemporaryFolder, prune: Bool = false) -> DownloadOptions {
        var options = testOptions(folder)
        options.refreshesStored = true
        options.prunesGone = prune
        return options
    }

    /// The last manifest line of each URL.
    private func latest(_ folder: TemporaryFolder) -> [String: ManifestRecord] {
        Dictionary(folder.manifest().map { ($0.url, $0) }) { _, later in later }
    }

    private func modificationDate(_ folder: TemporaryFolder, _ name: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(name).path)[
            .modificationDate] as? Date
    }

    @Test("The first run records ETag and Last-Modified; a refresh sends them and a 304 leaves every file alone")
    func unchangedCostsOneSmallRequestEach() async throws {
        let server = try TestHTTPServer()
        let items = serve(5, on: server)
        let folder = TemporaryFolder()
        let first = await Downloader(options: testOptions(folder)).download(items)
        #expect(first.ok == 5)
        for (number, item) in items.enumerated() {
            let record = try #require(latest(folder)[item.url.absoluteString])
            #expect(record.etag == "\"v1-\(number)\"" && record.lastModified == Self.lastModified)
        }
        // An old modification time, so that any rewrite would show.
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        for name in folder.imageNames() {
            try FileManager.default.setAttributes(
                [.modificationDate: past], ofItemAtPath: folder.url.appendingPathComponent(name).path)
        }
        let before = folder.imageNames().map { folder.contents($0) }

        let refresh = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(refresh.unchanged == 5 && refresh.ok == 0 && refresh.updated == 0 && refresh.failed == 0)
        for (number, item) in items.enumerated() {
            let requests = server.requests(item.url.path)
            #expect(requests.count == 2)
            #expect(requests.last?.header("If-None-Match") == "\"v1-\(number)\"")
            #expect(requests.last?.header("If-Modified-Since") == Self.lastModified)
            let record = try #require(latest(folder)[item.url.absoluteString])
            #expect(record.status == .unchanged && record.httpStatus == 304 && record.etag == "\"v1-\(number)\"")
        }
        #expect(folder.imageNames().map { folder.contents($0) } == before)
        for name in folder.imageNames() { #expect(try modificationDate(folder, name) == past) }

        // A plain run after the refresh still counts the files as stored.
        let resumed = await Downloader(options: testOptions(folder)).download(items)
        #expect(resumed.skipped == 5)
        #expect(server.requestCount("/img0.png") == 2)
    }

    @Test("Changed upstream: the file is replaced, with the new hash and validators; the others stay")
    func changedIsReplaced() async throws {
        let server = try TestHTTPServer()
        let items = serve(3, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        let old = try #require(latest(folder)[items[1].url.absoluteString])
        server.route(
            "/img1.png", .conditional(body: Bodies.png(seed: 99), etag: "\"v2-1\"", lastModified: Self.lastModified))

        let events = await collectEvents(Downloader(options: refreshOptions(folder)), items)
        let refresh = try #require(summary(events))
        #expect(refresh.updated == 1 && refresh.ok == 1 && refresh.unchanged == 2)
        let record = try #require(records(events)[1])
        #expect(record.status == .ok && record.name == "img1.png" && record.etag == "\"v2-1\"")
        #expect(record.sha256 == SHA256.hash(Data(Bodies.png(seed: 99))).hexString && record.sha256 != old.sha256)
        #expect(folder.contents("img1.png") == Bodies.png(seed: 99))
        #expect(latest(folder)[items[1].url.absoluteString] == record)
        #expect(!folder.names().contains { AtomicFileWriter.isTemporary($0) })
    }

    @Test("404 and 410 mark items gone with the file kept; later runs skip them unless retrying failures")
    func goneKeepsTheFile() async throws {
        let server = try TestHTTPServer()
        let items = serve(3, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        server.removeRoute("/img0.png")
        server.route("/img2.png", .text("gone", status: 410))

        let refresh = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(refresh.gone == 2 && refresh.unchanged == 1 && refresh.failed == 0)
        let gone = try #require(latest(folder)[items[0].url.absoluteString])
        #expect(gone.status == .gone && gone.httpStatus == 404 && gone.name == "img0.png")
        #expect(latest(folder)[items[2].url.absoluteString]?.httpStatus == 410)
        #expect(folder.contents("img0.png") == Bodies.png(seed: 0))
        #expect(folder.contents("img2.png") == Bodies.png(seed: 2))

        let again = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(again.skipped == 2 && again.unchanged == 1)
        #expect(server.requestCount("/img0.png") == 2)
        var retrying = refreshOptions(folder)
        retrying.resume = .retryFailed
        _ = await Downloader(options: retrying).download(items)
        #expect(server.requestCount("/img0.png") == 3)
    }

    @Test("prunesGone deletes the file of a gone item, and its kept original")
    func pruneDeletes() async throws {
        let server = try TestHTTPServer()
        let items = serve(2, on: server)
        let folder = TemporaryFolder()
        var options = testOptions(folder)
        options.outputEncoding = .jpeg
        options.keepsOriginal = true
        _ = await Downloader(options: options).download(items)
        #expect(folder.imageNames() == ["img0.jpg", "img0.original.png", "img1.jpg", "img1.original.png"])
        server.removeRoute("/img0.png")

        var pruning = refreshOptions(folder, prune: true)
        pruning.outputEncoding = .jpeg
        pruning.keepsOriginal = true
        let refresh = await Downloader(options: pruning).download(items)
        #expect(refresh.gone == 1 && refresh.unchanged == 1)
        #expect(folder.imageNames() == ["img1.jpg", "img1.original.png"])
        let gone = try #require(latest(folder)[items[0].url.absoluteString])
        #expect(gone.status == .gone && gone.name == nil && gone.sha256 == nil)
    }

    @Test("A replaced item's kept original in a new format leaves no stale original behind")
    func replacedOriginalChangesFormat() async throws {
        let server = try TestHTTPServer()
        let items = serve(1, on: server)
        let folder = TemporaryFolder()
        var options = refreshOptions(folder)
        options.outputEncoding = .png
        options.keepsOriginal = true
        options.refreshesStored = false
        _ = await Downloader(options: options).download(items)
        #expect(folder.imageNames() == ["img0.original.png", "img0.png"])
        server.route("/img0.png", .conditional(body: Bodies.jpeg(seed: 5), etag: "\"j\"", lastModified: nil))
        options.refreshesStored = true
        let refresh = await Downloader(options: options).download(items)
        #expect(refresh.updated == 1)
        #expect(folder.imageNames() == ["img0.original.jpg", "img0.png"])
        #expect(folder.contents("img0.original.jpg") == Bodies.jpeg(seed: 5))
    }

    @Test("A failed revalidation keeps the file: a plain run skips it, the next refresh asks again")
    func failureKeepsTheStoredState() async throws {
        let server = try TestHTTPServer()
        let items = serve(1, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        let stored = try #require(latest(folder)[items[0].url.absoluteString])
        server.route("/img0.png", .text("down", status: 500))

        let refresh = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(refresh.failed == 1 && refresh.failuresByKind == ["http-status": 1])
        let failed = try #require(latest(folder)[items[0].url.absoluteString])
        #expect(failed.status == .failed && failed.httpStatus == 500)
        #expect(failed.name == stored.name && failed.sha256 == stored.sha256 && failed.etag == stored.etag)
        #expect(folder.contents("img0.png") == Bodies.png(seed: 0))

        let requests = server.requestCount("/img0.png")
        let plain = await Downloader(options: testOptions(folder)).download(items)
        #expect(plain.skipped == 1 && server.requestCount("/img0.png") == requests)
        _ = serve(1, on: server)
        let next = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(next.unchanged == 1)
        #expect(server.requests("/img0.png").last?.header("If-None-Match") == "\"v1-0\"")
    }

    @Test("Without validators the item is fetched in full: the same bytes are unchanged, new ones replace it")
    func withoutValidatorsComparesTheHash() async throws {
        let server = try TestHTTPServer()
        server.route("/plain.png", .respond(body: Bodies.png(seed: 3)))
        let items = [DownloadItem(url: server.url("/plain.png"))]
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        #expect(latest(folder)[items[0].url.absoluteString]?.etag == nil)

        let same = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(same.unchanged == 1)
        let request = try #require(server.requests("/plain.png").last)
        #expect(request.header("If-None-Match") == nil && request.header("If-Modified-Since") == nil)
        server.route("/plain.png", .respond(body: Bodies.png(seed: 4)))
        let changed = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(changed.updated == 1)
        #expect(folder.contents("plain.png") == Bodies.png(seed: 4))
    }

    @Test("Items not stored yet are fetched as a resume would, beside the revalidated ones")
    func newItemsAreFetched() async throws {
        let server = try TestHTTPServer()
        let items = serve(3, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(Array(items.prefix(2)))
        let refresh = await Downloader(options: refreshOptions(folder)).download(items)
        #expect(refresh.unchanged == 2 && refresh.ok == 1 && refresh.updated == 0)
        #expect(server.requests("/img2.png").map { $0.header("If-None-Match") } == [nil])
    }

    @Test("Every line of a refreshed manifest is read by the hand parser, to what JSONDecoder reads")
    func manifestLinesParse() async throws {
        let server = try TestHTTPServer()
        let items = serve(3, on: server)
        let folder = TemporaryFolder()
        _ = await Downloader(options: testOptions(folder)).download(items)
        server.route("/img0.png", .text("gone", status: 404))
        server.route("/img1.png", .conditional(body: Bodies.png(seed: 77), etag: "\"v2\"", lastModified: nil))
        _ = await Downloader(options: refreshOptions(folder)).download(items)
        let data = try #require(folder.contents("manifest.jsonl"))
        let lines = data.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 6)
        let statuses = try lines.map { line in
            let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line))
            let byHand = Data(line).withUnsafeBytes { ManifestLine(bytes: $0) }
            #expect(byHand == ManifestLine(record))
            return record.status
        }
        #expect(statuses.filter { $0 == .ok }.count == 4)
        #expect(Set(statuses.suffix(3)) == [.gone, .ok, .unchanged])
    }

    @Test("How a resume reads refresh lines: the latest line of a URL wins, a failed revalidation keeps the file")
    func priorIndexReadsRefreshLines() {
        let hash = String(repeating: "ab", count: 32)
        let stored = ManifestRecord(
            url: "u", name: "a.png", status: .ok, bytes: 3, sha256: hash, etag: "\"1\"", lastModified: "d")
        var index = PriorIndex()
        let one = URLFingerprint(shardValue: 0, low: 1)
        let two = URLFingerprint(shardValue: 0, low: 2)
        index.insert(ManifestLine(stored), fingerprint: one)
        var unchanged = stored
        unchanged.status = .unchanged
        unchanged.etag = "\"2\""
        index.insert(ManifestLine(unchanged), fingerprint: one)
        #expect(index[one]?.outcome == .ok && index[one]?.etag == "\"2\"" && index[one]?.lastModified == "d")
        #expect(index[one]?.name == Array("a.png".utf8))
        var failed = unchanged
        failed.status = .failed
        failed.errorKind = "http-status"
        index.insert(ManifestLine(failed), fingerprint: one)
        #expect(index[one]?.outcome == .ok)
        // A failure naming another hash, or with no stored line before it, is the item's failure.
        failed.sha256 = String(repeating: "cd", count: 32)
        index.insert(ManifestLine(failed), fingerprint: one)
        #expect(index[one]?.outcome == .failedItem)
        index.insert(ManifestLine(failed), fingerprint: two)
        #expect(index[two]?.outcome == .failedItem)
        index.insert(ManifestLine(ManifestRecord(url: "u", name: "a.png", status: .gone)), fingerprint: one)
        #expect(index[one]?.outcome == .gone && index[one]?.etag == nil)
    }
}
