import Foundation

/// Why a libcurl transfer did not produce a response; mapped onto the HTTP layer's error by the curl transport.
enum CurlTransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the transfer's clocks ran out.
    enum Timeout: String, Sendable, Hashable {
        /// No connection was established within the connect timeout.
        case connect
        /// No byte arrived for longer than the idle timeout.
        case idle
        /// The whole transfer took longer than its deadline.
        case total
    }

    /// A timeout expired, `elapsedMilliseconds` after the transfer started.
    case timedOut(Timeout, elapsedMilliseconds: Int64)
    /// The task was cancelled, or the sink refused the response.
    case cancelled
    /// The body of `url` is larger than the cap: `declaredLength` when Content-Length said so before any byte was read.
    case bodyTooLarge(limit: Int64, declaredLength: Int64?, url: URL)
    /// More redirects than the limit allows; `url` is the last one reached.
    case tooManyRedirects(limit: Int, url: URL)
    /// A redirect from https to http, refused because it would drop transport security.
    case insecureRedirect(from: URL, to: URL)
    /// A redirect to a scheme other than http or https.
    case unsupportedRedirectScheme(String, url: URL)
    /// A redirect from `url` whose Location libcurl could not resolve to an http(s) URL with a host.
    case invalidRedirect(location: String, url: URL)
    /// The request cannot be sent as described (a header with a line break, a scheme that is not http(s)).
    case invalidRequest(reason: String)
    /// The engine was shut down before the transfer finished.
    case engineStopped
    /// Any other libcurl failure: its `CURLcode`, the message from its error buffer, and the URL being fetched.
    case transport(code: Int, message: String, url: URL)

    /// A one-line explanation for people.
    var description: String {
        switch self {
        case .timedOut(let kind, let elapsed): "\(kind.rawValue) timeout after \(elapsed) ms"
        case .cancelled: "cancelled"
        case .bodyTooLarge(let limit, let declared?, let url):
            "body of \(url.absoluteString) (\(declared) bytes) is over the limit of \(limit)"
        case .bodyTooLarge(let limit, nil, let url): "body of \(url.absoluteString) is over the limit of \(limit) bytes"
        case .tooManyRedirects(let limit, let url): "more than \(limit) redirects, last at \(url.absoluteString)"
        case .insecureRedirect(let from, let to):
            "refused redirect from \(from.absoluteString) to \(to.absoluteString): https to http"
        case .unsupportedRedirectScheme(let scheme, let url): "redirect to unsupported scheme \(scheme): \(url)"
        case .invalidRedirect(let location, let url):
            "redirect from \(url.absoluteString) to an unusable location \(location.debugDescription)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .engineStopped: "the curl engine was shut down"
        case .transport(let code, let message, let url): "libcurl error \(code) for \(url.absoluteString): \(message)"
        }
    }
}
