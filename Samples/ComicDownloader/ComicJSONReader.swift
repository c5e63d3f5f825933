import Foundation
import Pixpipe

/// Reads comics' JSON from the site, keeping a copy of each in the run's `DataCache` for a run when the site
/// cannot be reached.
///
/// The JSON is still asked for on every run (it is how new and changed comics are found); a copy only stands
/// in, by the rule the image pipeline follows (RFC 9111 4.2.4, `servesStaleOnError`): when the site cannot be
/// reached (a transport failure or a timeout, `HTTPError.isOriginUnreachable`), never after an answer such
/// as a `404` or a `503`, and never for a response sent with `no-store`, `no-cache` or `must-revalidate`.
/// Once one request finds the site unreachable, the rest of the run reads the copies without asking, so a
/// site that is down costs one failed request (with its retries), not one per comic. The copy is the comic
/// re-encoded (the fields the sample reads), under a key no image URL has.
struct ComicJSONReader: Sendable {
    /// Sends the requests (its base URL is the site's).
    let client: HTTPClient
    /// The site, to make each path a URL for the cache key.
    let base: URL
    /// Where the copies are kept; `nil` for none.
    let cache: DataCache?
    /// Whether a request of this run found the site unreachable.
    private(set) var siteIsDown = false
    /// How many comics came from a copy because the site could not be reached.
    private(set) var fromCopies = 0

    /// A reader of `base` through `client`, keeping copies in `cache`.
    init(client: HTTPClient, base: URL, cache: DataCache?) {
        self.client = client
        self.base = base
        self.cache = cache
    }

    /// The comic at `path` (`/info.0.json`, `/N/info.0.json`): from the site, else, when the site cannot be
    /// reached, from its copy; throws the site's error otherwise.
    mutating func comic(at path: String) async throws(HTTPError) -> Comic {
        let key = "comic-json " + (URL(string: path, relativeTo: base)?.absoluteString ?? path)
        if siteIsDown, let comic = copy(key) {
            fromCopies += 1
            return comic
        }
        let sent = Date()
        do {
            let response = try await client.response(for: Request<Comic>(path: path))
            keep(response, sent: sent, for: key)
            return response.value
        } catch {
            guard error.isOriginUnreachable else { throw error }
            siteIsDown = true
            guard let comic = copy(key) else { throw error }
            fromCopies += 1
            return comic
        }
    }

    /// Stores the comic of `response` when HTTP lets a private cache store it, else forgets an older copy.
    private func keep(_ response: Response<Comic>, sent: Date, for key: String) {
        guard let cache else { return }
        let metadata = HTTPCacheMetadata(response: response.metadata, requestTime: sent, responseTime: Date())
        guard HTTPCachePolicy.http.mayStore(metadata), let data = try? JSONEncoder().encode(response.value) else {
            cache.removeEntry(for: key)
            return
        }
        // A cache may lose entries: a failed write costs the copy, not this run.
        try? cache.store(data, metadata: metadata, for: key)
    }

    /// The stored comic of `key` when its metadata lets it stand in for an unreachable site.
    private func copy(_ key: String) -> Comic? {
        guard let entry = cache?.entry(for: key), entry.metadata?.mayServeStale == true else { return nil }
        return try? JSONDecoder().decode(Comic.self, from: entry.data)
    }
}
