internal import CLibCurl
import Foundation
import PixpipeLocking

/// Why a request did not produce a value; every case says where and what happened.
///
/// ```swift
/// do {
///     let json = try await client.send(Request<JSON>(path: "/items"))
/// } catch .httpStatus(let code, let url, _) {
///     print("\(url) answered \(code)")
/// } catch {
///     print(error)   // one line, with context
/// }
/// ```
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL could not be built from `string` (alone or resolved against the base URL).
    case invalidURL(String)
    /// The URL's scheme is not `http` or `https`.
    case unsupportedScheme(String, url: URL)
    /// A request body could not be encoded (for example an `Encodable` that throws).
    case invalidRequestBody(reason: String)
    /// The transfer failed below HTTP; `code` is the transport's own code (a `URLError` code for URLSession).
    case transport(code: Int, description: String, url: URL)
    /// No complete response arrived within `after` for one attempt.
    case timedOut(after: Duration, url: URL)
    /// The request was cancelled, by task cancellation or through a ``Cancellable``.
    case cancelled(url: URL?)
    /// The server answered with a status the request does not accept; `bodyPrefix` is an excerpt of the
    /// start of the body: one line of at most ``bodyExcerptLength`` characters, controls escaped (see
    /// ``httpStatus(code:url:body:)``). The ``description`` shows its first ``descriptionExcerptLength``.
    case httpStatus(code: Int, url: URL, bodyPrefix: String)
    /// The response's `Content-Type` (`nil` when absent) is not among the `accepted` patterns.
    case unacceptableContentType(String?, accepted: [String], url: URL)
    /// The body is larger than `limit` bytes; the transfer was stopped without reading the rest.
    case bodyTooLarge(limit: Int, url: URL)
    /// More than `limit` redirects were needed; `url` is the last one reached.
    case tooManyRedirects(limit: Int, url: URL)
    /// A redirect from https to http was refused.
    case insecureRedirect(from: URL, to: URL)
    /// The body arrived but could not be converted to the requested type.
    case conversionFailed(ConversionError, url: URL?)

    /// The number of body bytes read for the excerpt of ``httpStatus(code:url:bodyPrefix:)``.
    package static let bodyPrefixLength = 512
    /// The most characters of the body excerpt of ``httpStatus(code:url:bodyPrefix:)``.
    public static let bodyExcerptLength = 200
    /// The most characters of a body excerpt shown in a ``description``: enough to recognise the page,
    /// short enough for a log line; the whole excerpt stays on the value (``bodyExcerpt``).
    ///
    /// ```swift
    /// print(error)   // "https://host/x answered HTTP 404: <!DOCTYPE html> <html> <head> <title>404 Not Fou…"
    /// ```
    public static let descriptionExcerptLength = 120

    /// The excerpt of the server's body the error holds, whole (up to ``bodyExcerptLength`` characters, one
    /// escaped line): of an unaccepted status, or of an HTML page sent in place of the requested data.
    ///
    /// ```swift
    /// catch let error as HTTPError {
    ///     print(error)                           // one line, 120 characters of the body at most
    ///     log(error.bodyExcerpt ?? "")           // the longer excerpt, for a closer look
    /// }
    /// ```
    public var bodyExcerpt: String? {
        switch self {
        case .httpStatus(_, _, let bodyPrefix):
            bodyPrefix.isEmpty ? nil : UntrustedText.excerpt(bodyPrefix, limit: Self.bodyExcerptLength)
        case .conversionFailed(.htmlPage(_, let excerpt), _): excerpt
        default: nil
        }
    }

    /// The error for a status not accepted, with the start of `body` as one short line: whitespace runs
    /// become one space and control characters are escaped (a server's body is shown on terminals and
    /// stored in manifests, and must neither rewrite the terminal nor spread over 13 lines of HTML).
    package static func httpStatus(code: Int, url: URL, body: some Collection<UInt8>) -> HTTPError {
        let text = String(decoding: body.prefix(bodyPrefixLength), as: UTF8.self)
        return .httpStatus(
            code: code, url: url, bodyPrefix: UntrustedText.excerpt(text, limit: bodyExcerptLength))
    }

    /// The URL the error is about, when known.
    public var url: URL? {
        switch self {
        case .invalidURL, .invalidRequestBody: nil
        case .unsupportedScheme(_, let url), .transport(_, _, let url), .timedOut(_, let url),
            .httpStatus(_, let url, _), .unacceptableContentType(_, _, let url), .bodyTooLarge(_, let url),
            .tooManyRedirects(_, let url):
            url
        case .cancelled(let url), .conversionFailed(_, let url): url
        case .insecureRedirect(_, let to): to
        }
    }

    /// Whether this is a cancellation.
    package var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// A one-line explanation for people; what came from outside (a URL, a body, a header, a transport's
    /// message) has its control characters escaped, so it is safe to print.
    public var description: String {
        UntrustedText.escaped(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case .invalidURL(let string): "invalid URL: \(string)"
        case .unsupportedScheme(let scheme, let url): "unsupported scheme \(scheme) in \(url.absoluteString)"
        case .invalidRequestBody(let reason): "cannot encode the request body: \(reason)"
        case .transport(let code, let description, let url):
            "transfer of \(url.absoluteString) failed (\(code)): \(description)"
        case .timedOut(let after, let url): "\(url.absoluteString) timed out after \(after)"
        case .cancelled(let url): "request \(url.map { "for \($0.absoluteString) " } ?? "")was cancelled"
        case .httpStatus(let code, let url, let bodyPrefix):
            "\(url.absoluteString) answered HTTP \(code)"
                + (bodyPrefix.isEmpty
                    ? "" : ": \(UntrustedText.excerpt(bodyPrefix, limit: Self.descriptionExcerptLength))")
        case .unacceptableContentType(let contentType, let accepted, let url):
            "\(url.absoluteString) sent \(contentType ?? "no content type"), expected \(accepted.joined(separator: " or "))"
        case .bodyTooLarge(let limit, let url): "body of \(url.absoluteString) is over the limit of \(limit) bytes"
        case .tooManyRedirects(let limit, let url): "more than \(limit) redirects, last at \(url.absoluteString)"
        case .insecureRedirect(let from, let to):
            "refused redirect from \(from.absoluteString) to insecure \(to.absoluteString)"
        case .conversionFailed(let error, let url):
            "cannot convert the body" + (url.map { " of \($0.absoluteString)" } ?? "") + ": \(error)"
        }
    }

    /// A stable short name of the case, for manifests, JSON output and summaries: `invalid-url`,
    /// `unsupported-scheme`, `request`, `transport`, `timeout`, `cancelled`, `http-status`, `content-type`,
    /// `body-too-large`, `too-many-redirects`, `insecure-redirect` or `conversion`.
    public var shortName: String {
        switch self {
        case .invalidURL: "invalid-url"
        case .unsupportedScheme: "unsupported-scheme"
        case .invalidRequestBody: "request"
        case .transport: "transport"
        case .timedOut: "timeout"
        case .cancelled: "cancelled"
        case .httpStatus: "http-status"
        case .unacceptableContentType: "content-type"
        case .bodyTooLarge: "body-too-large"
        case .tooManyRedirects: "too-many-redirects"
        case .insecureRedirect: "insecure-redirect"
        case .conversionFailed: "conversion"
        }
    }
}

extension HTTPError {
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

/// Transport failures that another attempt cannot fix, so ``RetryPolicy`` does not retry them.
extension HTTPError {
    /// Whether this is a transport failure that repeats on every attempt: a certificate the client does not
    /// trust, an unreadable CA file, a URL or option the transport refuses.
    ///
    /// The codes are the transport's own: libcurl's `CURLcode` (positive) for the curl transport,
    /// `URLError` codes (negative) for URLSession, so the two sets never collide. A failed TLS handshake
    /// in general (`CURLE_SSL_CONNECT_ERROR`) stays retryable: a reset mid-handshake looks the same.
    package var isPermanentTransportFailure: Bool {
        guard case .transport(let code, _, _) = self else { return false }
        return Self.permanentCurlCodes.contains(code) || Self.permanentURLErrorCodes.contains(code)
    }

    private static let permanentCurlCodes: Set<Int> = Set(
        [
            CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
        ].map { Int($0.rawValue) })

    private static let permanentURLErrorCodes: Set<Int> = Set(
        [
            URLError.Code.badURL, .unsupportedURL, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired,
        ].map(\.rawValue))
}

/// The former name of ``HTTPError``: renamed because `pixpipe fetch` is the downloader, not this layer.
@available(*, deprecated, renamed: "HTTPError")
public typealias FetchError = HTTPError
