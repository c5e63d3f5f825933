import Foundation

/// A transport that drives libcurl itself: one multi handle on its own thread, reused connections,
/// HTTP/2 multiplexing, millisecond timeouts, gzip and deflate decoding, and real progress.
///
/// The default transport on Linux. Same behaviour and errors as ``URLSessionTransport``: the body
/// streams into memory within `maxBodyBytes`, redirects follow the request's ``RedirectPolicy``,
/// and cancelling the calling task removes the transfer from libcurl at once.
///
/// ```swift
/// let client = HTTPClient(transport: CurlTransport(maxConnectionsPerHost: 16, idleTimeout: .seconds(5)))
/// ```
public final class CurlTransport: HTTPTransport {
    private let engine: CurlMultiEngine
    private let connectTimeout: Duration?
    private let idleTimeout: Duration?
    private let trust: TrustedCertificates?

    /// A transport with its own connections: at most `maxConnectionsPerHost` to one host, a connect
    /// timeout and an idle (no byte received) timeout on top of each request's deadline, and an
    /// optional PEM file of certificate authorities to trust instead of the system bundle.
    ///
    /// Without `caFile`, the certificate authorities the environment names are trusted, as the curl tool
    /// does (see ``TrustedCertificates/fromEnvironment(_:)``).
    public convenience init(
        maxConnectionsPerHost: Int = 6, connectTimeout: Duration? = .seconds(10), idleTimeout: Duration? = nil,
        caFile: String? = nil
    ) {
        self.init(
            maxConnectionsPerHost: maxConnectionsPerHost, connectTimeout: connectTimeout, idleTimeout: idleTimeout,
            trust: caFile.map { TrustedCertificates(caFile: $0) })
    }

    /// A transport as above that trusts the certificate authorities of `trust` instead of the system's;
    /// `nil` trusts what the environment names (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`), or else
    /// the system's.
    public init(
        maxConnectionsPerHost: Int = 6, connectTimeout: Duration? = .seconds(10), idleTimeout: Duration? = nil,
        trust: TrustedCertificates?
    ) {
        var configuration = CurlEngineConfiguration()
        configuration.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        configuration.maxTotalConnections = max(configuration.maxTotalConnections, configuration.maxConnectionsPerHost)
        engine = CurlMultiEngine(configuration: configuration)
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.trust = trust ?? TrustedCertificates.fromEnvironment()
    }

    /// The transport's own thread as a task executor, for tasks that send many small requests.
    ///
    /// A task that prefers it (`Task(executorPreference:)`, `group.addTask(executorPreference:)`,
    /// `withTaskExecutorPreference`) runs between the transport's turns on the thread that drives libcurl, so a
    /// finished transfer resumes it without waking another thread. Whatever it does between requests holds up
    /// every transfer of this transport: keep heavy work (decoding, hashing, writing files) on the global
    /// executor. The transport must outlive the tasks that prefer it, as with any task executor.
    ///
    /// ```swift
    /// let client = HTTPClient(configuration: configuration, transport: CurlTransport(maxConnectionsPerHost: 32))
    /// await withTaskGroup(of: Void.self) { group in
    ///     for url in urls {
    ///         group.addTask(executorPreference: client.transport.taskExecutor) {
    ///             _ = try? await client.send(Request<Data>(url: url))
    ///         }
    ///     }
    /// }
    /// ```
    public var taskExecutor: (any TaskExecutor)? { engine }

    /// libcurl ends each transfer at its deadline to the millisecond, so the client needs no timer per request.
    public var enforcesTimeout: Bool { true }

    /// Counts of what the engine holds, for tests that check nothing is left behind.
    var engineCounters: CurlEngineCounters { engine.counters }

    /// Whether the caller runs on the transport's thread (for tests of tasks that prefer it).
    var isCurrentThread: Bool { engine.isCurrentThread }

    /// Performs one request, streaming the body within its cap.
    public func perform(
        _ request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(HTTPError) -> TransportResponse {
        try await perform(request, observing: nil, progress: progress)
    }

    /// Performs one request, showing each body chunk to `observer` (on the transport's thread) as it arrives.
    public func perform(
        _ request: TransportRequest, observing observer: (any ResponseBodyObserver)?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled(url: request.url) }
        let sink = CurlReportingBodyCollector(progress: progress, observer: observer, url: request.url)
        let outcome: CurlTransferOutcome
        do {
            outcome = try await engine.perform(curlRequest(for: request), sink: sink)
        } catch {
            throw fetchError(for: error, request: request)
        }
        let metadata = ResponseMetadata(
            statusCode: outcome.head.statusCode, headers: outcome.head.httpHeaders, url: outcome.effectiveURL,
            httpVersion: outcome.head.httpVersion)
        return TransportResponse(metadata: metadata, body: sink.body)
    }

    private func curlRequest(for request: TransportRequest) -> CurlTransferRequest {
        var curl = CurlTransferRequest(url: request.url)
        curl.method = request.method.rawValue
        curl.headers = request.headers.map { CurlHeaderField(name: $0.name, value: $0.value) }
        curl.body = request.body
        curl.maxBodyBytes = Int64(max(0, request.maxBodyBytes))
        curl.maxRedirects = max(0, request.redirectPolicy.maxRedirects)
        curl.allowsInsecureRedirects = request.redirectPolicy.allowsInsecureRedirects
        curl.keepsHeadersAcrossOrigins = request.redirectPolicy.keepsHeadersAcrossOrigins
        // libcurl enforces the attempt's deadline to the millisecond (see `enforcesTimeout`).
        curl.totalTimeout = request.timeout
        curl.connectTimeout = connectTimeout
        curl.idleTimeout = idleTimeout
        curl.caFile = trust?.caFile
        curl.caPath = trust?.caDirectory
        return curl
    }

    private func fetchError(for error: CurlTransferError, request: TransportRequest) -> HTTPError {
        switch error {
        case .timedOut(let kind, _):
            let after =
                switch kind {
                case .connect: connectTimeout ?? request.timeout
                case .idle: idleTimeout ?? request.timeout
                case .total: request.timeout
                }
            return .timedOut(after: after, url: request.url)
        case .cancelled, .engineStopped:
            return .cancelled(url: request.url)
        case .bodyTooLarge(_, _, let url):
            return .bodyTooLarge(limit: request.maxBodyBytes, url: url)
        case .tooManyRedirects(let limit, let url):
            return .tooManyRedirects(limit: limit, url: url)
        case .insecureRedirect(let from, let to):
            return .insecureRedirect(from: from, to: to)
        case .unsupportedRedirectScheme(let scheme, let url):
            return .unsupportedScheme(scheme, url: url)
        case .invalidRedirect(let location, _):
            return .invalidURL(location)
        case .invalidRequest(let reason):
            // CURLE_BAD_FUNCTION_ARGUMENT: nothing was sent.
            return .transport(code: 43, description: reason, url: request.url)
        case .transport(let code, let message, let url):
            return .transport(code: code, description: message, url: url)
        }
    }
}
