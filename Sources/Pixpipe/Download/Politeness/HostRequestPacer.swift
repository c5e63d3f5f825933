import Foundation
import PixpipeLocking
import Synchronization

/// Spaces the requests to each host, and slows a host down when it says it is overloaded.
///
/// - Rates: at most ``DownloadOptions/requestsPerSecond`` attempts start per second and host, or a host's
///   own rate from ``DownloadOptions/hostRequestsPerSecond``. Each host has a next free start time; an
///   attempt takes it and moves it on by the host's interval, then sleeps until its turn. The turn is taken
///   while the attempt holds its transfer slot, so slots freed after a stall never release a burst; and
///   before the attempt's clocks start, so waiting never eats into its timeout.
/// - Slowdown: a `429` or `503` with `Retry-After` makes the whole host wait that long, not just the item
///   that got it; without `Retry-After`, the host's interval grows by ``initialSlowdown``, doubling with each
///   further one up to ``maximumSlowdown``, and every success takes a fifth off it (gone below 10 ms), so a
///   host that fails now and then recovers between failures while one that keeps failing is asked ever
///   more rarely. Every item of the host then retries on the host's schedule instead of its own.
///
/// Under ``DownloadOptions/shard`` every turn is also taken from ``SharedHostSlots``, a file per host in
/// the output folder, which holds the host's next free start and its slowdown: the shards writing there keep
/// the rate together, and a slowdown or `Retry-After` pause one of them is told holds for all (each turn
/// reads the host's file, so even a host this process never paced waits). Events and the summary tell what
/// this process was told. Without shards, with no rate set and no host slowed, ``waitForTurn(_:)`` reads one
/// atomic flag and takes no lock.
final class HostRequestPacer: Sendable {
    /// The extra interval a host gets on its first overload answer without `Retry-After`: 50 ms.
    static let initialSlowdown = Duration.milliseconds(50)
    /// The largest extra interval: 30 s between two requests to the host.
    static let maximumSlowdown = Duration.seconds(30)
    private struct HostState {
        var nextStart: ContinuousClock.Instant?
        var slowdown: Duration = .zero
        /// The least interval the host asked for itself (robots.txt's `Crawl-delay`), over the rate's.
        var floor: Duration = .zero
    }

    private let defaultInterval: Duration?
    private let intervals: [String: Duration]
    private let hosts = Locked([String: HostState]())
    /// The largest interval each slowed host reached (its rate's plus the slowdown), for the summary.
    private let slowest = Locked([String: Duration]())
    /// Whether any host has ever been slowed or paused: until then an unpaced batch takes no lock.
    private let engaged = Atomic<Bool>(false)
    /// The turns shared with the other shards writing to the same folder; `nil` without a shard.
    private let shared: SharedHostSlots?

    /// A pacer for `options`' rates.
    init(options: DownloadOptions) {
        defaultInterval = options.requestsPerSecond.flatMap(Self.interval)
        var intervals: [String: Duration] = [:]
        for (host, rate) in options.hostRequestsPerSecond {
            if let interval = Self.interval(rate) { intervals[host.lowercased()] = interval }
        }
        self.intervals = intervals
        shared = options.shard == nil ? nil : SharedHostSlots(outputDirectory: options.outputDirectory)
        // Under shards another process may slow or pause any host: every turn asks the shared file.
        if defaultInterval != nil || !intervals.isEmpty || shared != nil { engaged.store(true, ordering: .relaxed) }
    }

    /// Waits for the next free start time of `url`'s host; `false` when cancelled while waiting.
    func waitForTurn(_ url: URL) async -> Bool {
        guard engaged.load(ordering: .relaxed) else { return true }
        let host = Self.host(url)
        let rate = intervals[host] ?? defaultInterval ?? .zero
        let now = ContinuousClock.now
        var (turn, base) = hosts.withLock { table -> (ContinuousClock.Instant, Duration) in
            var state = table[host] ?? HostState()
            let turn = max(now, state.nextStart ?? now)
            let base = max(rate, state.floor)
            let interval = base + state.slowdown
            if interval > .zero || table[host] != nil {
                state.nextStart = turn + interval
                table[host] = state
            }
            return (turn, base)
        }
        if let shared, let taken = shared.take(host: host, base: base, notBefore: turn - now) {
            // Other shards may hold the next turns, or have slowed or paused the host: this process's next
            // turn comes no earlier than after ours, at the interval the shared slowdown makes.
            turn = now + taken.wait
            let interval = base + taken.slowdown
            hosts.withLock { table in
                guard table[host] != nil || taken.slowdown > .zero || turn + interval > now else { return }
                var state = table[host] ?? HostState()
                state.slowdown = taken.slowdown
                state.nextStart = max(state.nextStart ?? turn, turn + interval)
                table[host] = state
            }
        }
        guard turn > now else { return true }
        do {
            try await Task.sleep(until: turn, clock: .continuous)
            return true
        } catch {
            return false
        }
    }

    /// Whether `url`'s host is paced now: it has a rate, a `Crawl-delay`, a slowdown, or a turn still ahead.
    func paces(_ url: URL) -> Bool {
        guard engaged.load(ordering: .relaxed) else { return false }
        let host = Self.host(url)
        if defaultInterval != nil || intervals[host] != nil { return true }
        let now = ContinuousClock.now
        return hosts.withLock { table in
            guard let state = table[host] else { return false }
            return state.floor > .zero || state.slowdown > .zero || state.nextStart.map { $0 > now } ?? false
        }
    }

    /// How long until `url`'s host's next free start, taking nothing; zero when it is free now. Under shards
    /// the shared file's next free start counts too.
    func delayUntilFree(_ url: URL) -> Duration {
        guard engaged.load(ordering: .relaxed) else { return .zero }
        let host = Self.host(url)
        let now = ContinuousClock.now
        let local = hosts.withLock { table -> Duration in
            guard let next = table[host]?.nextStart, next > now else { return .zero }
            return now.duration(to: next)
        }
        // Other shards' turns and pauses, so that the wait is spent here, holding no network slot.
        return max(local, shared?.delayUntilFree(host: host) ?? .zero)
    }

    /// Sets the least interval between two requests to `url`'s host (its robots.txt `Crawl-delay`); a
    /// longer one from the rate stays. The change, for the event stream.
    func setMinimumInterval(_ interval: Duration, forHostOf url: URL) -> HostPaceChange {
        let host = Self.host(url)
        engaged.store(true, ordering: .relaxed)
        let base = intervals[host] ?? defaultInterval ?? .zero
        let slowdown = hosts.withLock { table -> Duration in
            var state = table[host] ?? HostState()
            state.floor = interval
            table[host] = state
            return state.slowdown
        }
        return HostPaceChange(
            host: host, reason: .crawlDelay, intervalSeconds: (max(base, interval) + slowdown).secondsValue)
    }

    /// `url`'s host answered `429` or `503`: it waits `retryAfter` as a whole, or without one is slowed down.
    /// The change, for the event stream.
    @discardableResult
    func overloaded(_ url: URL, retryAfter: Duration?) -> HostPaceChange {
        let host = Self.host(url)
        engaged.store(true, ordering: .relaxed)
        let rate = intervals[host] ?? defaultInterval ?? .zero
        // The shared file's slowdown, when there are shards: the one every shard then goes by.
        let sharedSlowdown = shared.flatMap { shared in
            let floor = hosts.withLock { $0[host]?.floor ?? .zero }
            return shared.overloaded(host: host, base: max(rate, floor), retryAfter: retryAfter)
        }
        let (reached, base) = hosts.withLock { table -> (Duration, Duration) in
            var state = table[host] ?? HostState()
            let base = max(rate, state.floor)
            let now = ContinuousClock.now
            if let sharedSlowdown { state.slowdown = sharedSlowdown }
            if let retryAfter {
                state.nextStart = max(state.nextStart ?? now, now + retryAfter)
            } else {
                if sharedSlowdown == nil {
                    state.slowdown =
                        state.slowdown == .zero ? Self.initialSlowdown : min(state.slowdown * 2, Self.maximumSlowdown)
                }
                // The next request waits the new interval from now, not from the last turn.
                state.nextStart = max(state.nextStart ?? now, now + base + state.slowdown)
            }
            table[host] = state
            return (base + state.slowdown, base)
        }
        if reached > base { slowest.withLock { $0[host] = max($0[host] ?? .zero, reached) } }
        if let retryAfter {
            return HostPaceChange(
                host: host, reason: .paused, intervalSeconds: reached.secondsValue,
                pauseSeconds: retryAfter.secondsValue)
        }
        return HostPaceChange(host: host, reason: .slowed, intervalSeconds: reached.secondsValue)
    }

    /// `url`'s host answered with success: a slowed host's extra interval shrinks by a fifth. The change
    /// when the host is back to its own pace (no slowdown left), for the event stream; else `nil`.
    func succeeded(_ url: URL) -> HostPaceChange? {
        guard engaged.load(ordering: .relaxed) else { return nil }
        let host = Self.host(url)
        let rate = intervals[host] ?? defaultInterval ?? .zero
        // A slowdown seen here (told, or read from the shared file at the turn) is shrunk in the shared file too.
        guard hosts.withLock({ ($0[host]?.slowdown ?? .zero) > .zero }) else { return nil }
        let sharedSlowdown = shared?.succeeded(host: host)
        let recovered = hosts.withLock { table -> Duration? in
            guard var state = table[host], state.slowdown > .zero else { return nil }
            if let sharedSlowdown {
                state.slowdown = sharedSlowdown
            } else {
                state.slowdown = state.slowdown * 4 / 5
                if state.slowdown < .milliseconds(10) { state.slowdown = .zero }
            }
            table[host] = state
            return state.slowdown == .zero ? max(rate, state.floor) : nil
        }
        return recovered.map { HostPaceChange(host: host, reason: .recovered, intervalSeconds: $0.secondsValue) }
    }

    /// The hosts that were slowed, with the longest time between two of their requests, in seconds.
    var slowedHosts: [String: Double] {
        slowest.withLock { $0.mapValues(\.secondsValue) }
    }

    /// The host a pace is kept for: the URL's host name, in lower case (every port of it shares the pace).
    static func host(_ url: URL) -> String { url.host?.lowercased() ?? "" }

    /// The time between two starts at `rate` a second; `nil` for no limit (a rate of 0 or less, or not finite).
    private static func interval(_ rate: Double) -> Duration? {
        guard rate > 0, rate.isFinite else { return nil }
        return .nanoseconds(Int64((1e9 / rate).rounded()))
    }
}
