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

    /// A timeout expired after `elapsed` milliseconds.
    case timedOut(Timeout, elapsedMilliseconds: Int64)
    /// The task was cancelled, or the sink refused the response.
    case cancelled
    /// The body is larger than the cap: `declaredLength` when Content-Length said so before any byte was read.
    case bodyTooLarge(limit: Int64, declaredLength: Int64?)
    /// More redirects than the limit allows.
    case tooManyRedirects(limit: Int)
    /// A redirect from https to http, refused because it would drop transport security.
    case insecureRedirect(from: String, to: String)
    /// The request cannot be sent as described (a header with a line break, a scheme that is not http(s)).
    case invalidRequest(reason: String)
    /// The engine was shut down before the transfer finished.
    case engineStopped
    /// Any other libcurl failure: its `CURLcode` and the message from its error buffer.
    case transport(code: Int, message: String)

    /// A one-line explanation for people.
    var description: String {
        switch self {
        case .timedOut(let kind, let elapsed): "\(kind.rawValue) timeout after \(elapsed) ms"
        case .cancelled: "cancelled"
        case .bodyTooLarge(let limit, let declared?): "body of \(declared) bytes is over the limit of \(limit)"
        case .bodyTooLarge(let limit, nil): "body is over the limit of \(limit) bytes"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .insecureRedirect(let from, let to): "refused redirect from \(from) to \(to): https to http"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .engineStopped: "the curl engine was shut down"
        case .transport(let code, let message): "libcurl error \(code): \(message)"
        }
    }
}
