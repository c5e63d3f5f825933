import Foundation

/// An HTTP/1.1 server on 127.0.0.1, at a port the kernel picks, for tests that need a real socket.
///
/// Each route says how to answer one path: fixed bytes, delays, slow or endless bodies, truncation,
/// resets, redirects, `Retry-After`, failures before success. Every request is recorded.
///
/// ```swift
/// let server = try TestHTTPServer()
/// server.route("/hello", .text("hi"))
/// let (data, _) = try await URLSession.shared.data(from: server.url("/hello"))
/// #expect(server.requestCount("/hello") == 1)
/// ```
///
/// One thread accepts; each connection gets its own thread and serves several requests (keep-alive)
/// until `Connection: close`. ``stop()``, also run by `deinit`, ends everything promptly. Closures in
/// `.handler` routes run on connection threads and must not call ``stop()``.
public final class TestHTTPServer: Sendable {
    private let core: ServerCore

    /// Binds 127.0.0.1 at a port the kernel picks and starts accepting connections.
    public init() throws(TestServerError) {
        core = try ServerCore()
        core.start()
    }

    deinit {
        core.stop()
    }

    /// The port the server listens on.
    public var port: Int { core.listener.port }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL {
        // Built from a literal host and an integer port, so it always parses.
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The URL of `path` (which starts with "/" and may carry a query) on this server.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL.appending(path: path)
    }

    /// Answers requests whose path is exactly `path` (the query string is ignored) as `behavior` says;
    /// a later call for the same path replaces the route.
    public func route(_ path: String, _ behavior: TestRoute) {
        core.state.withLock { $0.routes[path] = behavior }
    }

    /// Removes the route for `path`, so it answers 404 again.
    public func removeRoute(_ path: String) {
        core.state.withLock { $0.routes[path] = nil }
    }

    /// How many requests arrived for `path`, routed or not.
    public func requestCount(_ path: String) -> Int {
        core.state.withLock { $0.records[path]?.requests.count ?? 0 }
    }

    /// The requests that arrived for `path`, in order.
    public func requests(_ path: String) -> [RecordedRequest] {
        core.state.withLock { $0.records[path]?.requests ?? [] }
    }

    /// How many responses for `path` were carried out in full.
    public func completedResponses(_ path: String) -> Int {
        core.state.withLock { $0.records[path]?.completedResponses ?? 0 }
    }

    /// How many responses for `path` were cut off because the client closed or reset the connection.
    public func abortedResponses(_ path: String) -> Int {
        core.state.withLock { $0.records[path]?.abortedResponses ?? 0 }
    }

    /// How many connections the server has accepted; with keep-alive, fewer than requests.
    public var connectionCount: Int {
        core.state.withLock { $0.connectionCount }
    }

    /// Stops accepting, closes the listening socket and every open connection, and waits for the
    /// server's threads to finish. Calling it again does nothing.
    public func stop() {
        core.stop()
    }
}
