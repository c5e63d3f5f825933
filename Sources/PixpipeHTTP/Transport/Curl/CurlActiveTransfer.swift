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
        case insecureRedirect(from: URL, to: URL)
        case tooManyRedirects
        case unsupportedRedirectScheme(String, url: URL)
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
    private var lastReportedProgress: CurlTransferProgress?

    init(transfer: CurlTransfer, easy: CurlEasyHandle, now: ContinuousClock.Instant) {
        self.transfer = transfer
        self.easy = easy
        self.startedAt = now
        self.lastActivity = now
        self.currentURL = transfer.request.url
    }

    /// When the idle timeout fires if nothing arrives before.
    var idleDeadline: ContinuousClock.Instant? {
        transfer.request.idleTimeout.map { lastActivity + $0 }
    }

    /// Notes that bytes arrived, for the idle timeout. Reading the clock is skipped when no idle timeout
    /// is set: it was a measurable part of the engine thread's work per small response.
    private func noteActivity() {
        if transfer.request.idleTimeout != nil { lastActivity = .now }
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
        let request = transfer.request
        if request.maxRedirects != nil, (300..<400).contains(head.statusCode), head.statusCode != 304,
            let location = head.value(for: "Location")
        {
            // libcurl follows this hop next; the redirect policy is checked here first, as headers end.
            guard let next = URL(string: location, relativeTo: currentURL)?.absoluteURL else { return true }
            redirectCount += 1
            if let refusal = refusal(ofRedirectTo: next, limit: request.maxRedirects ?? 0) {
                abortReason = refusal
                return false
            }
            currentURL = next
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

    private func refusal(ofRedirectTo next: URL, limit: Int) -> AbortReason? {
        let scheme = next.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .unsupportedRedirectScheme(scheme, url: next) }
        if redirectCount > limit { return .tooManyRedirects }
        if !transfer.request.allowsInsecureRedirects, currentURL.scheme?.lowercased() == "https", scheme == "http" {
            return .insecureRedirect(from: currentURL, to: next)
        }
        return nil
    }

    /// Handles one chunk of decoded body; returns false to abort the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        noteActivity()
        bodyByteCount += Int64(chunk.count)
        if let limit = transfer.request.maxBodyBytes, bodyByteCount > limit {
            abortReason = .bodyTooLarge(declaredLength: nil)
            return false
        }
        guard transfer.sink.receiveBody(chunk) else {
            abortReason = .refusedBySink
            return false
        }
        return true
    }

    /// Reports progress when it changed; never aborts.
    func reportProgress(downloaded: Int64, expected: Int64) {
        guard let report = transfer.request.progress else { return }
        let progress = CurlTransferProgress(receivedBytes: downloaded, expectedBytes: expected > 0 ? expected : nil)
        guard progress != lastReportedProgress else { return }
        lastReportedProgress = progress
        report(progress)
    }

    /// The error a failed transfer ends with, given libcurl's code and message.
    func error(for code: CURLcode, message: String, now: ContinuousClock.Instant) -> CurlTransferError {
        let request = transfer.request
        switch (code, abortReason) {
        case (_, .bodyTooLarge(let declared)?):
            return .bodyTooLarge(limit: request.maxBodyBytes ?? 0, declaredLength: declared, url: currentURL)
        case (_, .insecureRedirect(let from, let to)?):
            return .insecureRedirect(from: from, to: to)
        case (_, .tooManyRedirects?):
            return .tooManyRedirects(limit: request.maxRedirects ?? 0, url: currentURL)
        case (_, .unsupportedRedirectScheme(let scheme, let url)?):
            return .unsupportedRedirectScheme(scheme, url: url)
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
