import Foundation
import Pixpipe

/// Turns each comic's image into a 200-pixel JPEG thumbnail in a folder, loading through an `ImagePipeline`
/// whose disk cache outlives the run.
///
/// The image loading is this one type, so that it can move to another loader without touching the rest of
/// the sample. The pipeline's `DataCache` keeps each image's original bytes with their HTTP headers, so a
/// second run takes a fresh image from the disk with no request, asks the site about a stale one with
/// `If-None-Match` / `If-Modified-Since` (a `304` reuses the stored bytes), and downloads only what is new,
/// changed or damaged in the cache; when the site cannot be reached, a stale image is taken from the cache
/// unless it was sent with `must-revalidate` or `no-cache` (`servesStaleOnError`). The thumbnail is the request's processing; every run writes each one
/// again (atomically), so a changed image replaces its thumbnail and a deleted thumbnail comes back.
struct ThumbnailStore: Sendable {
    /// The thumbnails' box.
    static let size = 200
    /// The thumbnails' encoding.
    static let encoding = ImageEncoding.jpeg(quality: 85)
    /// How many comics are loaded at once. The pipeline's queues already bound downloads and decodes; this
    /// bounds the decoded thumbnails waiting to be written, however long the archive.
    static let concurrentComics = 8

    /// Loads the images; its client's retry policy waits out a `503` with `Retry-After`.
    let pipeline: ImagePipeline

    /// A store loading with `client`, keeping original bytes in `cache` (none when `nil`). No memory cache:
    /// each image is asked for once per run.
    init(client: HTTPClient, cache: DataCache?) {
        pipeline = ImagePipeline(
            configuration: .init(client: client, imageCache: nil, dataCache: cache, servesStaleOnError: true))
    }

    /// Stores the thumbnails of `entries` into `folder`; returns how many are there and the comics whose
    /// image failed for good.
    func store(_ entries: [ComicCatalog.Entry], in folder: URL) async -> (stored: Int, problems: [ComicProblem]) {
        await withTaskGroup(of: ComicProblem?.self) { group in
            var waiting = entries.makeIterator()
            for _ in 0..<Self.concurrentComics {
                guard let entry = waiting.next() else { break }
                group.addTask { await store(entry, in: folder) }
            }
            var stored = 0
            var problems: [ComicProblem] = []
            while let outcome = await group.next() {
                if let problem = outcome { problems.append(problem) } else { stored += 1 }
                if let entry = waiting.next() { group.addTask { await store(entry, in: folder) } }
            }
            return (stored, problems)
        }
    }

    /// What the run's image loads cost, in a line: from the disk cache with no request, revalidated (a
    /// conditional request answered `304`), fetched (every other request, failures included), and, only
    /// when some were, taken stale from the cache because the site could not be reached (their failed
    /// request not counted as fetched). Public API only: `ImagePipeline.statistics`.
    var costSummary: String {
        let statistics = pipeline.statistics
        let fetched = statistics.networkRequests - statistics.notModified - statistics.staleServed
        var line =
            "images: \(statistics.diskHits) from the cache (no request), \(statistics.notModified) revalidated "
            + "(304 Not Modified), \(fetched) fetched"
        if statistics.staleServed > 0 {
            line += ", \(statistics.staleServed) stale from the cache (the site cannot be reached)"
        }
        return line
    }

    /// Loads the thumbnail of `entry` and writes it into `folder`; `nil` when it is there, else the problem.
    private func store(_ entry: ComicCatalog.Entry, in folder: URL) async -> ComicProblem? {
        let request = ImageRequest(
            url: entry.imageURL, processing: [.thumbnail(ThumbnailOptions(size: .box(Self.size)))])
        let thumbnail: Image
        do {
            thumbnail = try await pipeline.image(for: request)
        } catch {
            return ComicProblem(number: entry.comic.num, reason: "cannot store its image: \(error.shortName): \(error)")
        }
        let file = folder.appendingPathComponent(Self.fileName(for: entry.comic))
        do {
            try thumbnail.encoded(as: Self.encoding).write(to: file, options: .atomic)
        } catch {
            return ComicProblem(number: entry.comic.num, reason: "cannot store its image: \(file.path): \(error)")
        }
        return nil
    }

    /// `N-Title.jpg`, with the title made one safe file name: separators and control characters become `_`,
    /// at most 200 bytes. It starts with the number, so never with a dot like the cache folder.
    static func fileName(for comic: Comic) -> String {
        var stem = String(
            String.UnicodeScalarView(
                "\(comic.num)-\(comic.title)".unicodeScalars.map { scalar in
                    scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control ? "_" : scalar
                }))
        while stem.utf8.count > 200 { stem.removeLast() }
        return stem + ".jpg"
    }
}
