import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `DownloadProgress` drawn from a real batch's events, and the summary's reasons for skipping.
@Suite("Download progress and skip reasons", .serialized)
struct DownloadProgressTests {
    @Test("Totals follow the events: finished of total by status, bytes received only growing")
    func totalsFromEvents() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        let jpeg = Bodies.jpeg()
        server.route("/a.jpg", .respond(body: jpeg))
        server.route("/b.jpg", .respond(body: jpeg))
        server.route("/missing.jpg", .text("no", status: 404))
        let items = ["/a.jpg", "/b.jpg", "/missing.jpg", "/a.jpg"].map { DownloadItem(url: server.url($0)) }
        var options = testOptions(folder)
        options.retryPolicy = .none
        var progress = DownloadProgress(total: items.count)
        var lastBytes = 0
        for await event in Downloader(options: options).run(items) {
            progress.record(event)
            #expect(progress.bytesReceived >= lastBytes)
            lastBytes = progress.bytesReceived
        }
        #expect(progress.finished == 4 && progress.fractionCompleted == 1)
        #expect(progress.ok == 2 && progress.failed == 1 && progress.skipped == 1 && progress.inFlight == 0)
        #expect(progress.bytesReceived >= 2 * jpeg.count)

        // A rerun skips what is done and says why, by reason.
        let rerun = await Downloader(options: options).download(items)
        #expect(rerun.skipped == 4)
        #expect(rerun.skippedByReason == ["already-done": 2, "already-failed": 1, "duplicate": 1])
        #expect(rerun.skips == [.alreadyDone: 2, .alreadyFailed: 1, .duplicate: 1])
    }
}
