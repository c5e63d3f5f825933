import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built-in transport: URLSession (FoundationNetworking on Linux) with a session of its own while it lives.
///
/// Bodies stream through a delegate into memory bounded by the request's cap; nothing is written to disk.
/// The client, not URLSession, enforces timeouts and queueing: URLSession's own timeout is set longer than
/// the client's deadline, and `maxConnectionsPerHost` should equal the client's concurrency so that
/// URLSession never holds a request in its own queue.
public final class URLSessionTransport: HTTPTransport {
    private let pooled: PooledSession
    private var session: URLSession { pooled.session }
    private var delegate: SessionDelegate { pooled.delegate }

    /// A transport whose session opens at most `maxConnectionsPerHost` connections to one host.
    ///
    /// The session may be one that an ended transport with the same cap left behind, idle connections and
    /// all: sessions are reused rather than torn down, because tearing one down just after a cancelled task
    /// can crash FoundationNetworking.
    public init(maxConnectionsPerHost: Int = 6) {
        pooled = URLSessionPool.shared.take(maxConnectionsPerHost: max(1, maxConnectionsPerHost))
    }

    deinit {
        URLSessionPool.shared.giveBack(pooled)
    }

    /// Performs one request, streaming the body within its cap.
    public func perform(
        _ request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(HTTPError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled(url: request.url) }
        let task = session.dataTask(with: urlRequest(for: request))
        let transfer = URLSessionTransfer(
            task: task, request: request, controlQueue: delegate.controlQueue, progress: progress)
        delegate.register(transfer)
        defer { delegate.unregister(transfer) }
        return try await transfer.run().get()
    }

    private func urlRequest(for request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // URLSession on Linux counts whole seconds of idleness; keep it well behind the client's deadline.
        let seconds = Double(request.timeout.components.seconds) + 1
        urlRequest.timeoutInterval = max(seconds * 2, 5)
        return urlRequest
    }
}
