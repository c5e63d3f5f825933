import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// The ComicDownloader sample's second run with the site down (the server stopped, so its port refuses):
/// what is in the cache still becomes thumbnails, and the run says so.
extension ComicDownloaderCacheTests {
    /// Serves every image stale at once but with a validator, with `cacheControl` for the comics in `strict`.
    func serveStaleImages(strict: Set<Int> = [], cacheControl: String = "max-age=0, must-revalidate") {
        for number in Self.comics {
            server.route(
                "/img/\(number).png",
                .conditional(
                    body: png, etag: "\"v\(number)\"", lastModified: nil,
                    headers: [
                        "Content-Type": "image/png",
                        "Cache-Control": strict.contains(number) ? cacheControl : "max-age=0",
                    ]))
        }
    }

    @Test("The site down: a second run writes every thumbnail from the cache (JSON and images) and says so")
    func siteDown() throws {
        serveStaleImages()
        let first = try run()
        #expect(first.status == 0, "\(first.errors)")
        #expect(!first.errors.contains("cannot be reached"))
        let written = try thumbnails()
        #expect(written.count == 4)
        try removeThumbnails()
        server.stop()

        let second = try run()
        #expect(second.status == 0, "\(second.errors)")
        // The latest comic's JSON (also comic 4's) and comics 1 to 3.
        #expect(second.errors.contains("the site cannot be reached: 4 comics' JSON from the cache"), "\(second.errors)")
        #expect(
            second.errors.contains(
                Self.costs(cached: 0, revalidated: 0, fetched: 0)
                    + ", 4 stale from the cache (the site cannot be reached)"), "\(second.errors)")
        #expect(second.outputText.contains("thumbnails: 4 of 4 comics"))
        #expect(try thumbnails() == written)
    }

    @Test(
        "The site down: images sent with must-revalidate or no-cache are missing by number, exit 1",
        arguments: ["max-age=0, must-revalidate", "no-cache"])
    func siteDownStrictImages(cacheControl: String) throws {
        serveStaleImages(strict: [1, 2], cacheControl: cacheControl)
        #expect(try run().status == 0)
        try removeThumbnails()
        server.stop()

        let second = try run()
        #expect(second.status == 1, "\(second.errors)")
        #expect(second.errors.contains("comic #1: cannot store its image: transport"), "\(second.errors)")
        #expect(second.errors.contains("comic #2: cannot store its image: transport"))
        #expect(second.errors.contains(", 2 stale from the cache (the site cannot be reached)"), "\(second.errors)")
        #expect(second.outputText.contains("missing: #1, #2"))
        #expect(try thumbnails().keys.sorted() == ["3-Panel 3.jpg", "4-Panel 4.jpg"])
    }

    @Test("The site down with nothing cached: cannot read the latest comic, exit 1")
    func siteDownFirstRun() throws {
        server.stop()
        let result = try run()
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot read the latest comic: "), "\(result.errors)")
    }

    @Test("A 503 is an answer, not the site being down: the cached JSON does not stand in")
    func serverErrorIsNotDown() throws {
        serveStaleImages()
        #expect(try run().status == 0)
        server.route("/info.0.json", .text("busy", status: 503))
        let second = try run()
        #expect(second.status == 1)
        #expect(second.errors.contains("cannot read the latest comic: "), "\(second.errors)")
        #expect(!second.errors.contains("cannot be reached"))
        // The client's retry policy asked four times in all.
        #expect(server.requestCount("/info.0.json") == 1 + 4)
    }

    @Test("--help says what a run does when the site cannot be reached")
    func helpOffline() throws {
        let help = try sample.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputText.contains("When the site cannot"))
        #expect(help.outputText.contains("must-revalidate or no-cache"))
    }
}
