import Foundation

/// Moves one request over the wire and returns the raw response; the client layers timeouts, retries,
/// acceptance and conversion on top.
///
/// A transport must stream the body into memory no larger than `request.maxBodyBytes` (failing with
/// ``HTTPError/bodyTooLarge(limit:url:)`` without reading the excess), follow redirects by
/// `request.redirectPolicy`, report progress, and stop promptly with ``HTTPError/cancelled(url:)`` when
/// its task is cancelled. ``URLSessionTransport`` is the built-in one.
public protocol HTTPTransport: Sendable {
    /// Performs `request`, calling `progress` as body bytes arrive.
    func perform(
        _ request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(HTTPError) -> TransportResponse

    /// Performs `request`, showing the body to `observer` and calling `progress` (when given) as bytes
    /// arrive. The default runs ``perform(_:progress:)`` and shows the observer the whole body at the end;
    /// a streaming transport shows each chunk as it comes, so the bytes are read once while still in cache.
    func perform(
        _ request: TransportRequest, observing observer: (any ResponseBodyObserver)?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> TransportResponse

    /// Whether the transport itself ends every transfer at `request.timeout`, exactly, with
    /// ``HTTPError/timedOut(after:url:)``; the client then runs no timer of its own per request.
    var enforcesTimeout: Bool { get }

    /// The executor of the transport's own I/O thread, if it has one that tasks may run on.
    ///
    /// A task that prefers it resumes after each transfer without a thread hop; see
    /// ``CurlTransport/taskExecutor``. `nil` for transports whose threads are not theirs to lend.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension HTTPTransport {
    /// Runs ``perform(_:progress:)``, then shows the observer the whole body at once.
    public func perform(
        _ request: TransportRequest, observing observer: (any ResponseBodyObserver)?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> TransportResponse {
        let response = try await perform(request, progress: progress ?? { _ in })
        if let inspector = observer?.headInspector, !inspector.acceptsBody(of: response.metadata) {
            throw .cancelled(url: request.url)
        }
        if let observer {
            observer.begin()
            response.body.withUnsafeBytes { observer.observe($0) }
        }
        return response
    }

    /// By default the client races each transfer against its own timer.
    public var enforcesTimeout: Bool { false }

    /// By default a transport has no thread for tasks to run on.
    public var taskExecutor: (any TaskExecutor)? { nil }
}

/// A fully resolved request as a transport sees it: absolute URL, final headers, limits.
public struct TransportRequest: Sendable, Hashable {
    /// The absolute http or https URL.
    public var url: URL
    /// The method.
    public var method: HTTPMethod
    /// Every header field to send.
    public var headers: HTTPHeaders
    /// The body bytes, if any.
    public var body: Data?
    /// The most body bytes the transport may accept.
    public var maxBodyBytes: Int
    /// How redirects are followed.
    public var redirectPolicy: RedirectPolicy
    /// The client's deadline for this attempt; a transport may use it to set its own (longer) safety timeout.
    public var timeout: Duration

    /// A transport request from its parts.
    public init(
        url: URL, method: HTTPMethod, headers: HTTPHeaders, body: Data?, maxBodyBytes: Int,
        redirectPolicy: RedirectPolicy, timeout: Duration
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.maxBodyBytes = maxBodyBytes
        self.redirectPolicy = redirectPolicy
        self.timeout = timeout
    }
}

/// The raw response from a transport: metadata and the whole body (within the cap).
public struct TransportResponse: Sendable, Hashable {
    /// Status, headers and final URL.
    public var metadata: ResponseMetadata
    /// The body bytes.
    public var body: Data

    /// A transport response from its parts.
    public init(metadata: ResponseMetadata, body: Data) {
        self.metadata = metadata
        self.body = body
    }
}
