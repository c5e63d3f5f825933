import Foundation
import Pixpipe

/// Turns each comic's image into a 200-pixel JPEG thumbnail in a folder.
///
/// The image loading is this one function, so that it can move to another loader without touching the
/// rest of the sample. Today it is the `Downloader`: verified by decoding, retried (a `503` with
/// `Retry-After` waited out), written atomically, with a manifest, and a rerun skips what is done.
enum ThumbnailStore {
    /// The thumbnails' box.
    static let size = 200

    /// Stores the thumbnails of `entries` into `folder`; returns how many are there (written now or by an
    /// earlier run) and the comics whose image failed for good.
    static func store(_ entries: [ComicCatalog.Entry], in folder: URL) async -> (stored: Int, problems: [ComicProblem])
    {
        var options = DownloadOptions(outputDirectory: folder)
        options.processing = [.thumbnail(ThumbnailOptions(size: .box(size)))]
        options.outputEncoding = .jpeg(quality: 85)
        options.retryPolicy = RetryPolicy(maxAttempts: 4, maxDelay: ComicCatalog.maxRetryWait)
        // An image that failed in an earlier run is asked for again, not skipped as failed.
        options.resume = .retryFailed
        let items = entries.map { DownloadItem(url: $0.imageURL, name: "\($0.comic.num)-\($0.comic.title)") }
        var stored = 0
        var problems: [ComicProblem] = []
        for await event in Downloader(options: options).run(items) {
            guard case .finished(let index, let record) = event else { continue }
            switch record.status {
            case .ok, .skipped, .unchanged:
                stored += 1
            case .failed, .gone:
                let reason = record.error.map { String($0.prefix { $0 != "\n" }) } ?? record.status.rawValue
                problems.append(
                    ComicProblem(number: entries[index].comic.num, reason: "cannot store its image: \(reason)"))
            }
        }
        return (stored, problems)
    }
}
