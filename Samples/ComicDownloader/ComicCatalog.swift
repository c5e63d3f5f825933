import Foundation
import Pixpipe

/// The comics of a site with xkcd's JSON API: the latest at `/info.0.json` says how many there are, and
/// each one, at `/N/info.0.json`, names its image.
///
/// Real archives have holes (xkcd has no comic 404) and servers have bad moments: a comic whose JSON
/// cannot be read is reported by number and the others go on. The client's retry policy waits out a
/// `503` or `429` with `Retry-After` (up to ``maxRetryWait``) before a comic counts as failed.
struct ComicCatalog: Sendable {
    /// A comic whose image is to be loaded.
    struct Entry: Sendable {
        /// The comic.
        var comic: Comic
        /// Its image's absolute URL.
        var imageURL: URL
    }

    /// The longest `Retry-After` waited out; a server asking for longer is asked again after this long.
    static let maxRetryWait = Duration.seconds(60)

    /// The latest comic.
    var latest: Comic
    /// The comics read, in number order.
    var entries: [Entry] = []
    /// The comics that could not be read, in number order.
    var problems: [ComicProblem] = []
    /// Whether the site could not be reached while reading.
    var siteIsDown = false
    /// How many comics' JSON came from the cache because the site could not be reached.
    var fromCopies = 0

    /// A client for `base` whose retries honour `Retry-After` up to ``maxRetryWait``.
    static func client(for base: URL) -> HTTPClient {
        HTTPClient(
            configuration: HTTPClient.Configuration(
                baseURL: base, retryPolicy: RetryPolicy(maxAttempts: 4, maxDelay: maxRetryWait)))
    }

    /// Reads the latest comic (a failure there is the caller's: without it there is no archive), then every
    /// comic from 1 to its number, through `reader` (which falls back on its copies when the site is down).
    static func read(with reader: ComicJSONReader) async throws(HTTPError) -> ComicCatalog {
        var reader = reader
        let base = reader.base
        let latest = try await reader.comic(at: "/info.0.json")
        var catalog = ComicCatalog(latest: latest)
        for number in 1...max(1, latest.num) {
            let comic: Comic
            do throws(HTTPError) {
                comic =
                    number == latest.num
                    ? latest : try await reader.comic(at: "/\(number)/info.0.json")
            } catch {
                catalog.problems.append(ComicProblem(number: number, jsonError: error))
                continue
            }
            guard let imageURL = URL(string: comic.img, relativeTo: base)?.absoluteURL,
                imageURL.scheme?.hasPrefix("http") == true
            else {
                catalog.problems.append(ComicProblem(number: number, reason: "image URL '\(comic.img)' is not usable"))
                continue
            }
            catalog.entries.append(Entry(comic: comic, imageURL: imageURL))
        }
        catalog.siteIsDown = reader.siteIsDown
        catalog.fromCopies = reader.fromCopies
        return catalog
    }
}
