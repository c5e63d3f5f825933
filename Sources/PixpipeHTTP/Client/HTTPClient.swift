import Foundation
import PixpipeLocking

/// Sends typed requests: resolves, adapts, queues, times out, retries, checks and converts.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(baseURL: URL(string: "https://api.example.com")))
/// let json = try await client.send(Request<JSON>(path: "/models"))
/// let response = try await client.response(for: Request<String>(path: "/readme"))
/// print(response.statusCode, response.value)
/// ```
///
/// Requests beyond ``Configuration/maxConcurrentRequests`` wait in the client's own queue; the transport
/// only ever sees as many as it has connections for, so waiting never eats into a timeout.
public final class HTTPClient: Sendable {
    /// The client used by `Request.response(completion:)` when none is given.
    public static let shared = HTTPClient()

    /// The settings.
    public let configuration: Configuration
    /// What moves bytes.
    public let transport: any HTTPTransport
    private let limiter: ConcurrencyLimiter
    /// The configuration's base URL as a folder, made once (see ``RequestTarget/path(_:)``).
    private let baseFolder: URL?

    /// A client; the default transport is ``HTTPTransportKind/platformDefault`` (curl on Linux) sized to the
    /// configuration's concurrency.
    public init(configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil) {
        self.configuration = configuration
        self.transport =
            transport
            ?? HTTPTransportKind.platformDefault.makeTransport(
                maxConnectionsPerHost: configuration.maxConcurrentRequests, trust: configuration.trustedCertificates)
        self.limiter = ConcurrencyLimiter(limit: configuration.maxConcurrentRequests)
        self.baseFolder = RequestTarget.folder(of: configuration.baseURL)
    }

    /// Sends `request` and returns the converted body.
    public func send<Value>(_ request: Request<Value>) async throws(HTTPError) -> Value {
        try await response(for: request).value
    }

    /// Sends `request` and returns the converted body with the status, headers and final URL.
    public func response<Value>(for request: Request<Value>) async throws(HTTPError) -> Response<Value> {
        let prepared = try prepare(request)
        let acceptance = ResponseAcceptance(
            statusCodes: request.acceptableStatusCodes, contentTypes: request.acceptableContentTypes)
        let response = try await transfer(
            prepared, acceptance: acceptance, policy: request.retryPolicy ?? configuration.retryPolicy,
            progress: request.onProgress, observer: request.bodyObserver)
        return try Self.convert(response, with: request.conversion)
    }

    /// Runs attempts until one is accepted, one fails for good, or the policy gives up.
    ///
    /// Not generic: only the final conversion depends on the value type, and a conversion failure is
    /// never retried, so the loop deals in transport responses. Unspecialised generic code looked up the
    /// metadata of `Response<Value>` and its `Result` on every request.
    private func transfer(
        _ prepared: TransportRequest, acceptance: ResponseAcceptance, policy: RetryPolicy,
        progress: (@Sendable (TransferProgress) -> Void)?, observer: (any ResponseBodyObserver)?
    ) async throws(HTTPError) -> TransportResponse {
        var attempt = 1
        while true {
            let started = ContinuousClock.now
            let outcome = await performAttempt(prepared, progress: progress, observer: observer)
            let result = outcome.flatMap(acceptance.check)
            let elapsed = ContinuousClock.now - started
            var retryDelay: Duration?
            if case .failure(let error) = result, policy.shouldRetry(error, method: prepared.method, attempt: attempt) {
                let retryAfter = (try? outcome.get())?.metadata.headers["Retry-After"].flatMap {
                    RetryAfter.delay(from: $0)
                }
                retryDelay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
            }
            configuration.onAttempt?(
                AttemptEvent(
                    attempt: attempt, method: prepared.method, url: prepared.url,
                    outcome: outcome.map(\.metadata.statusCode), retryDelay: retryDelay, duration: elapsed))
            guard let retryDelay else { return try result.get() }
            do {
                try await Task.sleep(for: retryDelay)
            } catch {
                throw .cancelled(url: prepared.url)
            }
            attempt += 1
        }
    }

    /// Resolves the URL and assembles the transport request (before adapters).
    func prepare<Value>(_ request: Request<Value>) throws(HTTPError) -> TransportRequest {
        let url = try request.target.resolve(againstFolder: baseFolder, query: request.query)
        var headers = request.headers
        if let body = request.body, let contentType = body.contentType, !headers.contains("Content-Type") {
            headers["Content-Type"] = contentType
        }
        if let userAgent = configuration.userAgent, !headers.contains("User-Agent") {
            headers["User-Agent"] = userAgent
        }
        return TransportRequest(
            url: url, method: request.method, headers: headers, body: request.body?.data,
            maxBodyBytes: request.maxBodyBytes ?? configuration.maxBodyBytes,
            redirectPolicy: RedirectPolicy(
                maxRedirects: request.maxRedirects ?? configuration.maxRedirects,
                allowsInsecureRedirects: configuration.allowsInsecureRedirects,
                keepsHeadersAcrossOrigins: configuration.keepsHeadersAcrossOrigins),
            timeout: request.timeout ?? configuration.timeout)
    }

    /// One attempt: wait for a slot, adapt, then transfer under the deadline (which starts after the wait).
    private func performAttempt(
        _ prepared: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?,
        observer: (any ResponseBodyObserver)?
    ) async -> Result<TransportResponse, HTTPError> {
        guard await limiter.acquire() else { return .failure(.cancelled(url: prepared.url)) }
        let outcome = await adaptAndTransfer(prepared, progress: progress, observer: observer)
        limiter.release()
        // A transfer that lost a race with cancellation can report something else; the caller sees `.cancelled`.
        if Task.isCancelled, case .failure = outcome { return .failure(.cancelled(url: prepared.url)) }
        return outcome
    }

    /// Without a progress handler none is passed down, so a streaming transport builds no progress value
    /// per chunk.
    private func adaptAndTransfer(
        _ prepared: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?,
        observer: (any ResponseBodyObserver)?
    ) async -> Result<TransportResponse, HTTPError> {
        var adapted = prepared
        do {
            for adapter in configuration.adapters { adapted = try await adapter.adapt(adapted) }
        } catch {
            return .failure(error)
        }
        let transport = self.transport
        let finalRequest = adapted
        if transport.enforcesTimeout {
            do throws(HTTPError) {
                return .success(try await transport.perform(finalRequest, observing: observer, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return await Deadline.run(timeout: finalRequest.timeout, url: finalRequest.url) {
            do throws(HTTPError) {
                return .success(try await transport.perform(finalRequest, observing: observer, progress: progress))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Converts an accepted response's body into the requested type; a body that fails to convert and is an
    /// HTML page (a login portal, an error page sent with `200`) fails as ``ConversionError/htmlPage(title:excerpt:)``,
    /// which says more than the converter's own complaint about it.
    static func convert<Value>(
        _ response: TransportResponse, with conversion: ResponseConversion<Value>
    ) throws(HTTPError) -> Response<Value> {
        do {
            return Response(
                value: try conversion.convert(response.body, response.metadata), metadata: response.metadata)
        } catch {
            if let page = HTMLPage(body: response.body, contentType: response.metadata.contentType) {
                throw .conversionFailed(.htmlPage(title: page.title, excerpt: page.excerpt), url: response.metadata.url)
            }
            throw .conversionFailed(error, url: response.metadata.url)
        }
    }
}

/// What a request accepts as a response before converting it: the status codes and, optionally, the media types.
struct ResponseAcceptance: Sendable {
    /// The status codes that count as success.
    var statusCodes: Set<Int>
    /// Media type patterns (`image/*`) the Content-Type must match, or `nil` to accept any.
    var contentTypes: [String]?

    /// The response when its status and content type are acceptable, else the error that says why not.
    func check(_ response: TransportResponse) -> Result<TransportResponse, HTTPError> {
        let metadata = response.metadata
        guard statusCodes.contains(metadata.statusCode) else {
            return .failure(.httpStatus(code: metadata.statusCode, url: metadata.url, body: response.body))
        }
        if let contentTypes {
            let matches = metadata.contentType.map { type in
                contentTypes.contains { MediaType.matches(type, pattern: $0) }
            }
            guard matches ?? false else {
                return .failure(
                    .unacceptableContentType(metadata.contentType, accepted: contentTypes, url: metadata.url))
            }
        }
        return .success(response)
    }
}
