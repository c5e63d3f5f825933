import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bookkeeping of one URLSession transfer, as a value type with one method per event.
///
/// Kept free of I/O so each event's effect can be reasoned about (and tested) alone; ``URLSessionTransfer`` wraps it in
/// a lock and performs the side effects the methods ask for.
struct URLSessionTransferState {
    /// What the transport asked for.
    let request: TransportRequest
    /// Metadata of the final response, once headers arrived.
    var metadata: ResponseMetadata?
    /// Body bytes kept so far, never more than the cap.
    var body = Data()
    /// The size from `Content-Length`, when sent.
    var bytesExpected: Int?
    /// Redirects followed so far.
    var redirectCount = 0
    /// The URL of the response being received (changes with redirects).
    var currentURL: URL
    /// A failure found by the transport itself (cap, redirect policy); it wins over URLSession's own error.
    var failure: HTTPError?
    /// Set once the awaiting task was cancelled.
    var isCancelled = false

    /// A fresh transfer for `request`.
    init(request: TransportRequest) {
        self.request = request
        self.currentURL = request.url
    }

    /// Headers arrived. Returns `false` when the transfer must stop (declared body over the cap).
    mutating func receivedHeaders(statusCode: Int, headers: HTTPHeaders, url: URL, expectedLength: Int?) -> Bool {
        currentURL = url
        metadata = ResponseMetadata(statusCode: statusCode, headers: headers, url: url)
        bytesExpected = expectedLength
        if request.method != .head, let expectedLength, expectedLength > request.maxBodyBytes {
            failure = .bodyTooLarge(limit: request.maxBodyBytes, url: url)
            return false
        }
        return true
    }

    /// Body bytes arrived. Returns the progress to report, or `nil` when the transfer must stop because the
    /// cap is exceeded (the excess is dropped, never stored) or it already failed.
    mutating func receivedBody(_ chunk: Data) -> TransferProgress? {
        guard failure == nil, !isCancelled else { return nil }
        guard chunk.count <= request.maxBodyBytes - body.count else {
            failure = .bodyTooLarge(limit: request.maxBodyBytes, url: currentURL)
            return nil
        }
        body.append(chunk)
        return TransferProgress(bytesReceived: body.count, bytesExpected: bytesExpected)
    }

    /// The server redirects to `target`. Returns `false` when the policy refuses it.
    mutating func redirecting(from source: URL?, to target: URL) -> Bool {
        redirectCount += 1
        let from = source ?? currentURL
        if let refusal = request.redirectPolicy.check(redirectNumber: redirectCount, from: from, to: target) {
            failure = refusal
            return false
        }
        currentURL = target
        return true
    }

    /// What to send for an allowed redirect, given the request URLSession proposes: the same, without the
    /// headers the policy keeps from another origin (compared with the request's first URL).
    func redirectRequest(_ proposed: URLRequest) -> URLRequest {
        let policy = request.redirectPolicy
        guard let target = proposed.url, !policy.keepsHeadersAcrossOrigins,
            !RedirectPolicy.isSameOrigin(request.url, target)
        else { return proposed }
        let kept = policy.headers(request.headers, forRedirectFrom: request.url, to: target)
        var next = proposed
        for name in (proposed.allHTTPHeaderFields ?? [:]).keys where kept[name] == nil {
            next.setValue(nil, forHTTPHeaderField: name)
        }
        return next
    }

    /// The transfer ended; `error` is URLSession's, if any. Returns the outcome to deliver.
    func completed(error: (any Error)?) -> Result<TransportResponse, HTTPError> {
        if let failure { return .failure(failure) }
        if isCancelled { return .failure(.cancelled(url: request.url)) }
        if let error {
            return .failure(URLSessionTransferState.fetchError(for: error, request: request, url: currentURL))
        }
        guard let metadata else {
            return .failure(.transport(code: 0, description: "no response", url: currentURL))
        }
        return .success(TransportResponse(metadata: metadata, body: body))
    }

    /// Maps a URLSession error: cancellation and timeouts to their own cases, the rest to `transport`.
    static func fetchError(for error: any Error, request: TransportRequest, url: URL) -> HTTPError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return .transport(code: nsError.code, description: nsError.localizedDescription, url: url)
        }
        switch nsError.code {
        case NSURLErrorCancelled: return .cancelled(url: request.url)
        case NSURLErrorTimedOut: return .timedOut(after: request.timeout, url: url)
        default: return .transport(code: nsError.code, description: nsError.localizedDescription, url: url)
        }
    }
}
