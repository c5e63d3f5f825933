import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The ComicDownloader sample run twice over one disk cache: the second run asks the server only about what
/// is stale, counted by the server per path.
@Suite(
    "comic-downloader: the image cache", .serialized,
    .enabled(if: PixpipeExecutable.comicDownloader != nil, "comic-downloader is not built"))
struct ComicDownloaderCacheTests {
    static let comics = 1...4

    let sample: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory
    let png: [UInt8]

    init() throws {
        sample = try #require(PixpipeExecutable.comicDownloader)
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        png = Array(try TestImages.png())
        for number in Self.comics {
            let json = #"{"num":\#(number),"title":"Panel \#(number)","img":"/img/\#(number).png","alt":"a"}"#
            server.route("/\(number)/info.0.json", .json(json))
            if number == Self.comics.upperBound { server.route("/info.0.json", .json(json)) }
        }
    }

    /// Serves every image with `Cache-Control: max-age=3600`: fresh for the whole test.
    func serveFreshImages() {
        for number in Self.comics {
            server.route(
                "/img/\(number).png",
                .respond(headers: ["Content-Type": "image/png", "Cache-Control": "max-age=3600"], body: png))
        }
    }

    func run(_ extra: [String] = []) throws -> PixpipeExecutable.Result {
        try sample.run(extra + [server.baseURL.absoluteString, folder.path("comics")])
    }

    func imageRequestCounts() -> [Int] {
        Self.comics.map { server.requestCount("/img/\($0).png") }
    }

    /// The thumbnails' names and bytes.
    func thumbnails() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("comics"))
        var files: [String: Data] = [:]
        for name in names where name.hasSuffix(".jpg") {
            files[name] = try Data(contentsOf: folder.url.appendingPathComponent("comics/\(name)"))
        }
        return files
    }

    func removeThumbnails() throws {
        for name in try thumbnails().keys {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("comics/\(name)"))
        }
    }

    /// The summary line the sample prints on standard error.
    static func costs(cached: Int, revalidated: Int, fetched: Int) -> String {
        "images: \(cached) from the cache (no request), \(revalidated) revalidated (304 Not Modified), \(fetched) fetched"
    }

    @Test("Fresh entries (max-age): the second run makes no image request and writes the same thumbnails")
    func freshEntries() throws {
        serveFreshImages()
        let cache = folder.path("elsewhere/cache")
        let first = try run(["--cache", cache])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors.contains(Self.costs(cached: 0, revalidated: 0, fetched: 4)), "\(first.errors)")
        #expect(imageRequestCounts() == [1, 1, 1, 1])
        // One entry per image, and a copy of each comic's JSON (for a run when the site is down).
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.count == 64 }
        #expect(entries.count == 4 + 4)
        for number in Self.comics {
            let url = try #require(URL(string: "/img/\(number).png", relativeTo: server.baseURL)).absoluteURL
            #expect(entries.contains(DataCache.fileName(for: url.absoluteString)))
        }
        let written = try thumbnails()
        #expect(written.count == 4)
        try removeThumbnails()

        let second = try run(["--cache", cache])
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.errors.contains(Self.costs(cached: 4, revalidated: 0, fetched: 0)), "\(second.errors)")
        #expect(imageRequestCounts() == [1, 1, 1, 1])
        #expect(try thumbnails() == written)
        // The JSON is read again every run: that is how new comics are found.
        #expect(server.requestCount("/info.0.json") == 2 && server.requestCount("/1/info.0.json") == 2)
    }

    @Test("Stale entries (max-age=0, ETag): one conditional request per image, answered 304; thumbnails written")
    func staleEntries() throws {
        for number in Self.comics {
            server.route(
                "/img/\(number).png",
                .conditional(
                    body: png, etag: "\"v\(number)\"", lastModified: nil,
                    headers: ["Content-Type": "image/png", "Cache-Control": "max-age=0"]))
        }
        let first = try run()
        #expect(first.status == 0, "\(first.errors)")
        #expect(imageRequestCounts() == [1, 1, 1, 1])
        let written = try thumbnails()
        try removeThumbnails()

        let second = try run()
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.errors.contains(Self.costs(cached: 0, revalidated: 4, fetched: 0)), "\(second.errors)")
        #expect(imageRequestCounts() == [2, 2, 2, 2])
        for number in Self.comics {
            let requests = server.requests("/img/\(number).png")
            #expect(requests.first?.headers["if-none-match"] == nil)
            #expect(requests.last?.headers["if-none-match"] == "\"v\(number)\"")
        }
        #expect(try thumbnails() == written)
        #expect(written.count == 4)
    }

    @Test("A damaged cache entry (one flipped byte) is fetched again, not a failure")
    func damagedEntry() throws {
        serveFreshImages()
        #expect(try run().status == 0)
        let url = try #require(URL(string: "/img/2.png", relativeTo: server.baseURL)).absoluteURL
        let entry = folder.url.appendingPathComponent("comics/.cache/\(DataCache.fileName(for: url.absoluteString))")
        var bytes = try Data(contentsOf: entry)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: entry)

        let second = try run()
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.errors.contains(Self.costs(cached: 3, revalidated: 0, fetched: 1)), "\(second.errors)")
        #expect(imageRequestCounts() == [1, 2, 1, 1])
        #expect(try thumbnails().count == 4)
        // The refetched bytes replaced the damaged entry.
        #expect(try Data(contentsOf: entry) != bytes)
    }

    @Test("A cache folder that cannot be made: said on standard error, and every image still a thumbnail")
    func unusableCache() throws {
        serveFreshImages()
        let blocker = try folder.write(Data("a file".utf8), to: "file")
        let result = try run(["--cache", blocker + "/cache"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("cannot open the cache in \(blocker)/cache"))
        #expect(result.errors.contains(Self.costs(cached: 0, revalidated: 0, fetched: 4)))
        #expect(try thumbnails().count == 4)
    }

    @Test("--help names the cache's default folder; --cache without a folder or --cache-size 0 is a usage error")
    func usage() throws {
        let help = try sample.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputText.contains("--cache DIR") && help.outputText.contains("OUT_DIR/.cache"))
        let missing = try sample.run([server.baseURL.absoluteString, folder.path("comics"), "--cache"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("--cache needs a folder"))
        let zero = try sample.run(["--cache-size", "0", server.baseURL.absoluteString, folder.path("comics")])
        #expect(zero.status == 2)
        #expect(zero.errors.contains("--cache-size needs a whole number of MiB"))
        #expect(server.requestCount("/info.0.json") == 0)
    }
}
