/// A change in how often the batch asks one host, sent as ``DownloadEvent/hostPace(_:)``.
///
/// ```swift
/// if case .hostPace(let change) = event, change.reason == .slowed {
///     print("\(change.host): one request every \(change.intervalSeconds) s")
/// }
/// ```
///
/// Only the time between requests changes; the most transfers at once to a host stay
/// ``DownloadOptions/perHostConcurrency``.
public struct HostPaceChange: Sendable, Hashable {
    /// Why the pace changed.
    public enum Reason: String, Sendable, Hashable {
        /// A `429` or `503` without `Retry-After`: the host's interval grew.
        case slowed
        /// A `429` or `503` with `Retry-After`: the whole host waits ``HostPaceChange/pauseSeconds``.
        case paused
        /// Successes took the slowdown away: the host is back to its own rate.
        case recovered
        /// The host's robots.txt gave a `Crawl-delay`, now the least interval between its requests.
        case crawlDelay = "crawl-delay"
    }

    /// The host (lowercased, without port).
    public var host: String
    /// Why the pace changed.
    public var reason: Reason
    /// The time now left between two requests to the host, in seconds (0: no spacing).
    public var intervalSeconds: Double
    /// For ``Reason/paused``: how long the whole host waits, in seconds.
    public var pauseSeconds: Double?

    /// A change from its parts.
    public init(host: String, reason: Reason, intervalSeconds: Double, pauseSeconds: Double? = nil) {
        self.host = host
        self.reason = reason
        self.intervalSeconds = intervalSeconds
        self.pauseSeconds = pauseSeconds
    }
}
