import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

extension PixpipeExecutable {
    /// The `comic-downloader` sample, built beside `pixpipe` (the test target depends on it), or `nil`.
    static let comicDownloader: PixpipeExecutable? = built.map {
        PixpipeExecutable(url: $0.url.deletingLastPathComponent().appendingPathComponent("comic-downloader"))
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0.url.path) ? $0 : nil }
}

/// The ComicDownloader sample run as a reader would, against an archive with a hole and a busy server.
@Suite(
    "comic-downloader: holes and a busy server", .serialized,
    .enabled(if: PixpipeExecutable.comicDownloader != nil, "comic-downloader is not built"))
struct ComicDownloaderTests {
    let sample: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        sample = try #require(PixpipeExecutable.comicDownloader)
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        for number in 1...6 {
            let json = #"{"num":\#(number),"title":"Panel \#(number)","img":"/img/\#(number).png","alt":"a"}"#
            server.route("/\(number)/info.0.json", .json(json))
            if number == 6 { server.route("/info.0.json", .json(json)) }
            server.route("/img/\(number).png", .respond(headers: ["Content-Type": "image/png"], body: png))
        }
    }

    /// Answers the first request with `503` and `Retry-After: 1`, the later ones as `route`.
    static func busyOnce(then route: TestRoute) -> TestRoute {
        let requests = Locked(0)
        return .handler { _ in
            let count = requests.withLock { count in
                count += 1
                return count
            }
            return count == 1 ? .retryAfter(status: 503, value: "1") : route
        }
    }

    func thumbnails() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path("comics")).filter { $0.hasSuffix(".jpg") }
            .sorted()
    }

    @Test("A hole (404) and an image that fails for good are reported by number; the rest become thumbnails")
    func holesAndBusyServer() throws {
        server.removeRoute("/3/info.0.json")
        server.route("/img/5.png", .text("Not Found", status: 404))
        server.route(
            "/2/info.0.json", Self.busyOnce(then: .json(#"{"num":2,"title":"Panel 2","img":"/img/2.png","alt":"a"}"#)))
        let png = Array(try TestImages.png())
        server.route("/img/4.png", Self.busyOnce(then: .respond(headers: ["Content-Type": "image/png"], body: png)))

        let started = ContinuousClock.now
        let result = try sample.run([server.baseURL.absoluteString, folder.path("comics")])
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors.contains("comic #3: missing (HTTP 404)"))
        #expect(result.errors.contains("comic #5: cannot store its image"))
        #expect(!result.errors.contains("comic #2") && !result.errors.contains("comic #4"))
        #expect(result.outputText.contains("thumbnails: 4 of 6 comics"))
        #expect(result.outputText.contains("missing: #3, #5"))
        #expect(try thumbnails() == ["1-Panel 1.jpg", "2-Panel 2.jpg", "4-Panel 4.jpg", "6-Panel 6.jpg"])
        // The 503s were waited out (Retry-After: 1 s), then asked again once.
        #expect(server.requestCount("/2/info.0.json") == 2 && server.requestCount("/img/4.png") == 2)
        #expect(elapsed >= .milliseconds(950))
    }

    @Test("A whole archive: exit 0; images sent with no caching headers are downloaded again by a second run")
    func wholeArchive() throws {
        let first = try sample.run([server.baseURL.absoluteString, folder.path("comics")])
        #expect(first.status == 0, "\(first.errors)")
        #expect(try thumbnails().count == 6)
        let second = try sample.run([server.baseURL.absoluteString, folder.path("comics")])
        #expect(second.status == 0)
        #expect(second.outputText.contains("thumbnails: 6 of 6 comics"))
        // No max-age, Expires or Last-Modified: nothing says the cached bytes are fresh, nor how to ask.
        #expect(server.requestCount("/img/1.png") == 2)
        #expect(
            second.errors.contains("images: 0 from the cache (no request), 0 revalidated (304 Not Modified), 6 fetched")
        )
    }
}
