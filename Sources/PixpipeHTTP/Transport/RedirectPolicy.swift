import Foundation

/// Which redirects a transport follows: how many, and whether https may lead to http.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; one more fails with ``FetchError/tooManyRedirects(limit:url:)``.
    public var maxRedirects: Int
    /// Whether an https URL may redirect to an http one; refused by default.
    public var allowsInsecureRedirects: Bool

    /// The default limit of redirects, 10.
    public static let defaultMaxRedirects = 10

    /// A policy; by default up to 10 redirects and no https to http downgrade.
    public init(maxRedirects: Int = RedirectPolicy.defaultMaxRedirects, allowsInsecureRedirects: Bool = false) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
    }

    /// The error for redirect number `count` from `from` to `to`, or `nil` when it may be followed.
    public func check(redirectNumber count: Int, from: URL, to: URL) -> FetchError? {
        let scheme = to.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme, url: to) }
        if count > maxRedirects { return .tooManyRedirects(limit: maxRedirects, url: from) }
        if !allowsInsecureRedirects, from.scheme?.lowercased() == "https", scheme == "http" {
            return .insecureRedirect(from: from, to: to)
        }
        return nil
    }
}
