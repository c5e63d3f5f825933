import Foundation
import PixpipeLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession and the delegate that routes its events, as one ``URLSessionTransport`` owns them.
struct PooledSession: Sendable {
    /// The session.
    let session: URLSession
    /// Its delegate, which routes each task's events to its ``URLSessionTransfer``.
    let delegate: SessionDelegate
    /// The session's `httpMaximumConnectionsPerHost`, under which it is kept for reuse.
    let maxConnectionsPerHost: Int
}

/// URLSessions that ended transports left behind, handed to new transports instead of being torn down.
///
/// Tearing a FoundationNetworking session down just after a task was cancelled races libcurl's sockets
/// against their Dispatch sources, a family of crashes reported upstream for short-lived sessions
/// (swift-corelibs-foundation #4791, #5491). A transport therefore never invalidates its session: when it
/// ends, the session waits here, idle, for the next transport with the same connection cap. A session is
/// used by one transport at a time, so the caps of live transports never share a queue. Only sessions
/// beyond ``maxIdlePerCap`` are invalidated, once their own tasks have finished.
final class URLSessionPool: Sendable {
    /// The pool every ``URLSessionTransport`` uses.
    static let shared = URLSessionPool()

    /// How many idle sessions are kept for each connection cap.
    static let maxIdlePerCap = 8

    private let idle = Locked<[Int: [PooledSession]]>([:])

    /// An idle session with this cap, or a new one.
    func take(maxConnectionsPerHost: Int) -> PooledSession {
        let reused = idle.withLock { $0[maxConnectionsPerHost]?.popLast() }
        return reused ?? Self.makeSession(maxConnectionsPerHost: maxConnectionsPerHost)
    }

    /// Keeps `pooled` for the next transport (its transport ended, so none of its transfers is awaited).
    func giveBack(_ pooled: PooledSession) {
        let kept = idle.withLock { idle in
            guard idle[pooled.maxConnectionsPerHost, default: []].count < Self.maxIdlePerCap else { return false }
            idle[pooled.maxConnectionsPerHost, default: []].append(pooled)
            return true
        }
        // URLSession keeps its delegate alive until invalidated; letting running tasks finish first avoids
        // the cancel-then-teardown race above.
        if !kept { pooled.session.finishTasksAndInvalidate() }
    }

    /// How many idle sessions with this cap the pool holds (for tests).
    func idleCount(maxConnectionsPerHost: Int) -> Int {
        idle.withLock { $0[maxConnectionsPerHost]?.count ?? 0 }
    }

    private static func makeSession(maxConnectionsPerHost: Int) -> PooledSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // Safety nets only: the client enforces the real (sub-second, total) deadlines.
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 3600
        let delegate = SessionDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        return PooledSession(session: session, delegate: delegate, maxConnectionsPerHost: maxConnectionsPerHost)
    }
}
