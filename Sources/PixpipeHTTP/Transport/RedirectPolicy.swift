import Foundation

/// Which redirects a transport follows: how many, whether https may lead to http, and which request headers
/// go along to another origin.
///
/// Both built-in transports ask it about every hop, on the exact URL they are about to fetch: ``check(redirectNumber:from:to:)``
/// decides whether to go, ``headers(_:forRedirectFrom:to:)`` what to send.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; one more fails with ``HTTPError/tooManyRedirects(limit:url:)``.
    public var maxRedirects: Int
    /// Whether an https URL may redirect to an http one; refused by default.
    public var allowsInsecureRedirects: Bool
    /// Whether every request header, credentials included, is sent on to another origin (scheme, host or
    /// port) after a redirect; off by default, as curl without `--location-trusted`.
    public var keepsHeadersAcrossOrigins: Bool

    /// The default limit of redirects, 10.
    public static let defaultMaxRedirects = 10

    /// The headers sent on to another origin unless ``keepsHeadersAcrossOrigins`` is set: they describe what
    /// is asked for (format, language, range, validators) and name nobody. Everything else, `Authorization`,
    /// `Cookie`, `Proxy-Authorization` and every other header a caller added, stays with the first origin.
    public static let headersKeptAcrossOrigins: Set<String> = [
        "accept", "accept-encoding", "accept-language", "user-agent", "range", "if-range", "if-none-match",
        "if-modified-since",
    ]

    /// A policy; by default up to 10 redirects, no https to http downgrade and no caller header sent to
    /// another origin.
    public init(
        maxRedirects: Int = RedirectPolicy.defaultMaxRedirects, allowsInsecureRedirects: Bool = false,
        keepsHeadersAcrossOrigins: Bool = false
    ) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.keepsHeadersAcrossOrigins = keepsHeadersAcrossOrigins
    }

    /// The error for redirect number `count` from `from` to `to`, or `nil` when it may be followed.
    ///
    /// `to` must be the absolute URL the transport will fetch; one without an http or https scheme, or
    /// without a host, is refused.
    public func check(redirectNumber count: Int, from: URL, to: URL) -> HTTPError? {
        let scheme = to.scheme?.lowercased() ?? ""
        guard !scheme.isEmpty else { return .invalidURL(to.absoluteString) }
        guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme, url: to) }
        guard let host = to.host, !host.isEmpty else { return .invalidURL(to.absoluteString) }
        if count > maxRedirects { return .tooManyRedirects(limit: maxRedirects, url: from) }
        if !allowsInsecureRedirects, from.scheme?.lowercased() == "https", scheme == "http" {
            return .insecureRedirect(from: from, to: to)
        }
        return nil
    }

    /// The fields of `headers` to send to `target`, a hop of a request first sent to `origin`.
    ///
    /// All of them while `target` has the origin's scheme, host and port (or ``keepsHeadersAcrossOrigins``
    /// is set); otherwise only ``headersKeptAcrossOrigins``. Compared with the request's first URL, as curl
    /// does: a chain that leaves the origin and comes back gets the headers back.
    public func headers(_ headers: HTTPHeaders, forRedirectFrom origin: URL, to target: URL) -> HTTPHeaders {
        guard !keepsHeadersAcrossOrigins, !Self.isSameOrigin(origin, target) else { return headers }
        var kept = HTTPHeaders()
        for field in headers where Self.headersKeptAcrossOrigins.contains(field.name.lowercased()) {
            kept.add(name: field.name, value: field.value)
        }
        return kept
    }

    /// Whether two URLs have the same scheme, host and port (the scheme's default port when none is written).
    public static func isSameOrigin(_ first: URL, _ second: URL) -> Bool {
        let firstScheme = first.scheme?.lowercased() ?? ""
        let secondScheme = second.scheme?.lowercased() ?? ""
        return firstScheme == secondScheme && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first, scheme: firstScheme) == effectivePort(second, scheme: secondScheme)
    }

    private static func effectivePort(_ url: URL, scheme: String) -> Int? {
        url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }
}
