import Foundation
import PixpipeLocking

/// Spaces the requests to each host: at most ``DownloadOptions/requestsPerSecond`` attempts start per
/// second and host, or a host's own rate from ``DownloadOptions/hostRequestsPerSecond``.
///
/// Each host has a next free start time; an attempt takes it and moves it on by the host's interval, then
/// sleeps until its turn. The turn is taken while the attempt holds its transfer slot, so slots freed after
/// a stall never release a burst; and before the attempt's clocks start, so waiting never eats into its
/// timeout. The rate holds within one process: shards run as several processes each pace themselves.
final class HostRequestPacer: Sendable {
    private let defaultInterval: Duration?
    private let intervals: [String: Duration]
    private let nextStart = Locked([String: ContinuousClock.Instant]())

    /// A pacer for `options`' rates, or `nil` when no rate is set (the batch then takes no lock for it).
    init?(options: DownloadOptions) {
        guard options.requestsPerSecond != nil || !options.hostRequestsPerSecond.isEmpty else { return nil }
        defaultInterval = options.requestsPerSecond.flatMap(Self.interval)
        var intervals: [String: Duration] = [:]
        for (host, rate) in options.hostRequestsPerSecond {
            if let interval = Self.interval(rate) { intervals[host.lowercased()] = interval }
        }
        self.intervals = intervals
    }

    /// Waits for the next free start time of `url`'s host; `false` when cancelled while waiting.
    func waitForTurn(_ url: URL) async -> Bool {
        let host = url.host?.lowercased() ?? ""
        guard let interval = intervals[host] ?? defaultInterval else { return true }
        let now = ContinuousClock.now
        let turn = nextStart.withLock { table in
            let turn = max(now, table[host] ?? now)
            table[host] = turn + interval
            return turn
        }
        guard turn > now else { return true }
        do {
            try await Task.sleep(until: turn, clock: .continuous)
            return true
        } catch {
            return false
        }
    }

    /// The time between two starts at `rate` a second; `nil` for no limit (a rate of 0 or less, or not finite).
    private static func interval(_ rate: Double) -> Duration? {
        guard rate > 0, rate.isFinite else { return nil }
        return .nanoseconds(Int64((1e9 / rate).rounded()))
    }
}
