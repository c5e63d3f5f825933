import Foundation
import PixpipeLocking

/// Fetches each origin's robots.txt once per batch, and tells whether a URL may be fetched.
///
/// The first item of an origin (scheme, host and port) starts the fetch; every other item of that origin,
/// concurrent or later, waits for the same one. The fetch takes the host's turn from the pacer like any
/// request, follows up to five redirects, and reads at most ``bodyLimit`` bytes, of which the first
/// ``RobotsRules/parseLimit`` are parsed. As RFC 9309 2.3.1 says: a `4xx` answer (or more than five
/// redirects) means no rules; a `5xx` answer, or none at all, disallows the whole origin for the batch.
final class RobotsCache: Sendable {
    /// The most bytes of a robots.txt read; a larger one counts as unreadable (the whole host disallowed).
    static let bodyLimit = 4 * 1024 * 1024
    /// The longest `Crawl-delay` honoured as it is, one hour; a longer one is taken as one hour.
    static let longestCrawlDelay = 3600.0

    /// What the batch knows of one origin's robots.txt.
    struct Verdict: Sendable {
        /// The rules for our product token.
        var rules: RobotsRules
        /// Why the whole origin is disallowed, when its robots.txt could not be read.
        var unreadable: String?
    }

    /// The end of the message of an item skipped for its host's unreadable robots.txt.
    private static let hostSkipped = "every URL of the host is skipped this run"
    private let client: HTTPClient
    private let options: DownloadOptions
    private let pacer: HostRequestPacer
    private let events: EventChannel
    private let verdicts = Locked([String: Task<Verdict, Never>]())

    /// A cache fetching with `client` under `options`, pacing through `pacer`, reporting to `events`.
    init(client: HTTPClient, options: DownloadOptions, pacer: HostRequestPacer, events: EventChannel) {
        self.client = client
        self.options = options
        self.pacer = pacer
        self.events = events
    }

    /// Why `url` must not be fetched, or `nil` when its origin's robots.txt allows it.
    func refusal(for url: URL) async -> String? {
        guard let robotsURL = Self.robotsURL(for: url) else { return nil }
        let task = verdicts.withLock { table -> Task<Verdict, Never> in
            if let task = table[robotsURL.absoluteString] { return task }
            // Unstructured, so that no one item owns the fetch every item of the origin waits for.
            let task = Task { await self.fetch(robotsURL) }
            table[robotsURL.absoluteString] = task
            return task
        }
        // Items are cancelled only with their whole batch: the shared fetch then stops too, so a stop never
        // waits for a slow robots.txt.
        let verdict = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        if let unreadable = verdict.unreadable { return unreadable }
        guard !verdict.rules.allows(path: Self.matchedPath(of: url)) else { return nil }
        return "robots.txt of \(robotsURL.host ?? "") disallows \(url.absoluteString)"
    }

    /// `/robots.txt` at `url`'s origin; `nil` for a URL without a host.
    static func robotsURL(for url: URL) -> URL? {
        guard let host = url.host, !host.isEmpty else { return nil }
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = host
        components.port = url.port
        components.path = "/robots.txt"
        return components.url
    }

    /// The part of `url` the rules match: its percent-encoded path and query, as sent in the request.
    static func matchedPath(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        return path
    }

    private func fetch(_ robotsURL: URL) async -> Verdict {
        let host = robotsURL.host ?? ""
        guard await pacer.waitForTurn(robotsURL) else {
            return Verdict(rules: .disallowAll, unreadable: "robots.txt of \(host) was not fetched (stopped)")
        }
        var request = Request<Data>(url: robotsURL)
        for (name, value) in options.headers { request.headers[name] = value }
        request.acceptableStatusCodes = Set(100..<600)
        request.acceptableContentTypes = nil
        request.retryPolicy = RetryPolicy.none
        request.timeout = options.timeout
        request.maxRedirects = 5
        request.maxBodyBytes = Self.bodyLimit
        let verdict: Verdict
        do throws(HTTPError) {
            let response = try await client.response(for: request)
            switch response.statusCode {
            case 200..<300:
                verdict = Verdict(
                    rules: RobotsRules(parsing: response.value, productToken: DownloadOptions.productToken))
            case 400..<500:
                verdict = Verdict(rules: .allowAll)
            default:
                verdict = Verdict(
                    rules: .disallowAll,
                    unreadable: "robots.txt of \(host) answered HTTP \(response.statusCode): \(Self.hostSkipped)")
            }
        } catch {
            if case .tooManyRedirects = error {
                // RFC 9309 2.3.1.2: past five redirects the file may be taken as unavailable, like a 4xx.
                verdict = Verdict(rules: .allowAll)
            } else {
                verdict = Verdict(
                    rules: .disallowAll,
                    unreadable: "robots.txt of \(host) could not be read (\(error.shortName)): \(Self.hostSkipped)")
            }
        }
        if let delay = verdict.rules.crawlDelay, delay > 0 {
            let seconds = min(delay, Self.longestCrawlDelay)
            let change = pacer.setMinimumInterval(.nanoseconds(Int64(seconds * 1e9)), forHostOf: robotsURL)
            await events.send(.hostPace(change))
        }
        return verdict
    }
}

extension RobotsCache.Verdict {
    /// A verdict of readable `rules`.
    init(rules: RobotsRules) {
        self.init(rules: rules, unreadable: nil)
    }
}
