internal import CLibCurl
import Foundation

/// The engine thread's state for one running transfer; libcurl's callbacks reach it through their user pointer.
///
/// Only the engine thread touches it, so it needs no lock; the engine keeps it alive while its
/// easy handle is in the multi handle, which is the only time the callbacks can fire.
final class CurlActiveTransfer {
    /// Why a callback stopped the transfer, so that `CURLE_WRITE_ERROR` can be told apart.
    enum AbortReason {
        case bodyTooLarge(declaredLength: Int64?)
        case refusedBySink
        case malformedHeader
    }

    let transfer: CurlTransfer
    let easy: CurlEasyHandle
    let startedAt: ContinuousClock.Instant
    private(set) var lastActivity: ContinuousClock.Instant
    private(set) var abortReason: AbortReason?
    private(set) var finalHead: CurlResponseHead?
    private(set) var bodyByteCount: Int64 = 0
    private(set) var redirectCount = 0
    private var parser = CurlResponseHeadParser()
    /// The URL being fetched: the request's, then each redirect's target.
    private(set) var currentURL: URL
    /// The request of the hop being fetched: the transfer's own, then what each followed redirect made of it.
    private(set) var hopRequest: CurlTransferRequest
    /// Whether the response being received is a redirect to follow; its body is read and dropped.
    private(set) var isRedirectResponse = false
    /// The status of the last redirect response, which decides the next hop's method.
    private var lastRedirectStatus = 0
    private var lastReportedProgress: CurlTransferProgress?

    init(transfer: CurlTransfer, easy: CurlEasyHandle, now: ContinuousClock.Instant) {
        self.transfer = transfer
        self.easy = easy
        self.startedAt = now
        self.lastActivity = now
        self.currentURL = transfer.request.url
        self.hopRequest = transfer.request
    }

    /// When the idle timeout fires if nothing arrives before.
    var idleDeadline: ContinuousClock.Instant? {
        hopRequest.idleTimeout.map { lastActivity + $0 }
    }

    /// Notes that bytes arrived, for the idle timeout. Reading the clock is skipped when no idle timeout
    /// is set: it was a measurable part of the engine thread's work per small response.
    private func noteActivity() {
        if hopRequest.idleTimeout != nil { lastActivity = .now }
    }

    /// Handles one header line; returns false to abort the transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        noteActivity()
        switch parser.consume(bytes: bytes) {
        case .none, .interim:
            return true
        case .malformed:
            abortReason = .malformedHeader
            return false
        case .complete(let head):
            return headEnded(head)
        }
    }

    private func headEnded(_ head: CurlResponseHead) -> Bool {
        let request = hopRequest
        // Every 3xx with a Location is a hop (304 Not Modified is an answer, never a hop). libcurl does not
        // follow it (CURLOPT_FOLLOWLOCATION is off): the engine asks ``nextHop(redirectURL:now:)`` once this
        // response ends, with curl's own resolution of the Location, and fetches exactly what was allowed.
        if request.maxRedirects != nil, (300..<400).contains(head.statusCode), head.statusCode != 304,
            head.value(for: "Location") != nil
        {
            isRedirectResponse = true
            lastRedirectStatus = head.statusCode
            return true
        }
        if let limit = request.maxBodyBytes, request.method != "HEAD", !head.hasContentEncoding,
            let declared = head.contentLength, declared > limit
        {
            abortReason = .bodyTooLarge(declaredLength: declared)
            return false
        }
        finalHead = head
        guard transfer.sink.receiveHead(head) else {
            abortReason = .refusedBySink
            return false
        }
        return true
    }

    /// What to do once a redirect response ended: the request for the next hop, or the error that ends the
    /// transfer. `redirectURL` is libcurl's resolution of the Location (`CURLINFO_REDIRECT_URL`), the exact
    /// URL the next hop would fetch; `nil` when libcurl could not resolve it.
    func nextHop(redirectURL: String?, now: ContinuousClock.Instant) -> Result<CurlTransferRequest, CurlTransferError> {
        let original = transfer.request
        redirectCount += 1
        guard let redirectURL, let next = URL(string: redirectURL) else {
            return .failure(.invalidRedirect(location: redirectURL ?? "", url: currentURL))
        }
        if let refusal = policy.check(redirectNumber: redirectCount, from: currentURL, to: next) {
            switch refusal {
            case .insecureRedirect(let from, let to): return .failure(.insecureRedirect(from: from, to: to))
            case .tooManyRedirects: return .failure(.tooManyRedirects(limit: policy.maxRedirects, url: currentURL))
            case .unsupportedScheme(let scheme, let url): return .failure(.unsupportedRedirectScheme(scheme, url: url))
            default: return .failure(.invalidRedirect(location: redirectURL, url: currentURL))
            }
        }
        var hop = hopRequest
        hop.url = next
        let headers = HTTPHeaders(original.headers.map { ($0.name, $0.value) })
        hop.headers = policy.headers(headers, forRedirectFrom: original.url, to: next).map {
            CurlHeaderField(name: $0.name, value: $0.value)
        }
        // As browsers and curl do: 303 asks for a GET; 301 and 302 turn a POST into a GET.
        let status = lastRedirectStatus
        if (status == 303 && hop.method != "GET" && hop.method != "HEAD")
            || ((status == 301 || status == 302) && hop.method == "POST")
        {
            hop.method = "GET"
            hop.body = nil
        }
        // A hop that dropped the body (here or at an earlier hop) drops its type too.
        if hop.body == nil, original.body != nil {
            hop.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        // The deadline covers the whole chain: the next hop gets what is left of it.
        if let total = original.totalTimeout {
            let left = total - (now - startedAt)
            guard left > .zero else {
                return .failure(.timedOut(.total, elapsedMilliseconds: (now - startedAt).milliseconds))
            }
            hop.totalTimeout = left
        }
        return .success(hop)
    }

    /// Makes `hop` the request being fetched, as the engine restarts the easy handle with it.
    func beginHop(_ hop: CurlTransferRequest) {
        hopRequest = hop
        currentURL = hop.url
        isRedirectResponse = false
        bodyByteCount = 0
        lastReportedProgress = nil
        parser = CurlResponseHeadParser()
    }

    private var policy: RedirectPolicy {
        let request = transfer.request
        return RedirectPolicy(
            maxRedirects: max(0, request.maxRedirects ?? 0), allowsInsecureRedirects: request.allowsInsecureRedirects,
            keepsHeadersAcrossOrigins: request.keepsHeadersAcrossOrigins)
    }

    /// Handles one chunk of decoded body; returns false to abort the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        noteActivity()
        bodyByteCount += Int64(chunk.count)
        if let limit = hopRequest.maxBodyBytes, bodyByteCount > limit {
            abortReason = .bodyTooLarge(declaredLength: nil)
            return false
        }
        // A redirect's body (usually a line of HTML) is read to keep the connection reusable, and dropped.
        if isRedirectResponse { return true }
        guard transfer.sink.receiveBody(chunk) else {
            abortReason = .refusedBySink
            return false
        }
        return true
    }

    /// Reports progress when it changed; never aborts.
    func reportProgress(downloaded: Int64, expected: Int64) {
        guard !isRedirectResponse, let report = hopRequest.progress else { return }
        let progress = CurlTransferProgress(bytesReceived: downloaded, bytesExpected: expected > 0 ? expected : nil)
        guard progress != lastReportedProgress else { return }
        lastReportedProgress = progress
        report(progress)
    }

    /// The error a failed transfer ends with, given libcurl's code and message.
    func error(for code: CURLcode, message: String, now: ContinuousClock.Instant) -> CurlTransferError {
        let request = hopRequest
        switch (code, abortReason) {
        case (_, .bodyTooLarge(let declared)?):
            return .bodyTooLarge(limit: request.maxBodyBytes ?? 0, declaredLength: declared, url: currentURL)
        case (_, .refusedBySink?):
            return .cancelled
        case (_, .malformedHeader?):
            let code = Int(CURLE_WEIRD_SERVER_REPLY.rawValue)
            return .transport(code: code, message: "malformed response header", url: currentURL)
        case (CURLE_OPERATION_TIMEDOUT, nil):
            let elapsed = now - startedAt
            let kind: CurlTransferError.Timeout =
                if let total = request.totalTimeout, elapsed >= total {
                    .total
                } else if finalHead == nil && easy.connectTime == .zero {
                    .connect
                } else { .total }
            return .timedOut(kind, elapsedMilliseconds: elapsed.milliseconds)
        case (CURLE_TOO_MANY_REDIRECTS, nil):
            return .tooManyRedirects(limit: request.maxRedirects ?? 0, url: currentURL)
        default:
            let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            return .transport(code: Int(code.rawValue), message: text, url: currentURL)
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in whole milliseconds, rounded up so a timeout never fires early; at least 1.
    var millisecondsRoundedUp: Int {
        let (seconds, attoseconds) = components
        let partial = attoseconds % 1_000_000_000_000_000 == 0 ? 0 : 1
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + Int64(partial)
        return Int(clamping: max(1, total))
    }
}
