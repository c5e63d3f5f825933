import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built-in transport: URLSession (FoundationNetworking on Linux) with a session of its own.
///
/// Bodies stream through a delegate into memory bounded by the request's cap; nothing is written to disk.
/// The client, not URLSession, enforces timeouts and queueing: URLSession's own timeout is set longer than
/// the client's deadline, and `maxConnectionsPerHost` should equal the client's concurrency so that
/// URLSession never holds a request in its own queue.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// A transport whose session opens at most `maxConnectionsPerHost` connections to one host.
    public init(maxConnectionsPerHost: Int = 6) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // Safety nets only: the client enforces the real (sub-second, total) deadlines.
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 3600
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // URLSession keeps its delegate alive until invalidated.
        session.invalidateAndCancel()
    }

    /// Performs one request, streaming the body within its cap.
    public func perform(
        _ request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(FetchError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled(url: request.url) }
        let task = session.dataTask(with: urlRequest(for: request))
        let transfer = Transfer(task: task, request: request, progress: progress)
        delegate.register(transfer)
        defer { delegate.unregister(taskIdentifier: task.taskIdentifier) }
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
