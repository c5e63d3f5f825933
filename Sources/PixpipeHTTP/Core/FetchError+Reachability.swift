import Foundation

extension FetchError {
    /// Whether the failure means the origin could not be reached, the "disconnected" case in which RFC 9111
    /// 4.2.4 lets a cache serve a stale copy: a transport failure (refused, reset, unresolved, cut short) or
    /// a timeout.
    ///
    /// Not an answer from the origin, however bad (a `5xx` is one: serving stale on it needs the server's
    /// leave, RFC 5861's `stale-if-error`), not a cancellation, and not a transport failure that is the
    /// client's own setup rather than the network (``isPermanentTransportFailure``: an untrusted
    /// certificate, a URL the transport refuses).
    public var isOriginUnreachable: Bool {
        switch self {
        case .transport: !isPermanentTransportFailure
        case .timedOut: true
        default: false
        }
    }
}
