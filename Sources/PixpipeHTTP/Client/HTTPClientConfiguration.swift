import Foundation

extension HTTPClient {
    /// Settings shared by every request a client sends; each request may override the per-request ones.
    public struct Configuration: Sendable {
        /// The URL that request paths are joined to, taken as a folder with or without a trailing `/`:
        /// `https://host/api` and `items.json` give `https://host/api/items.json`; a path starting with
        /// `/` starts from the host. See ``RequestTarget/path(_:)``.
        public var baseURL: URL?
        /// The most requests on the wire at once; more wait in the client's queue (not counted in their timeout).
        public var maxConcurrentRequests: Int
        /// The time one attempt may take, headers and body included.
        public var timeout: Duration
        /// The most body bytes accepted for one response.
        public var maxBodyBytes: Int
        /// The most redirects followed.
        public var maxRedirects: Int
        /// Whether https may redirect to http.
        public var allowsInsecureRedirects: Bool
        /// Whether every request header (credentials included) is sent on to another origin after a redirect;
        /// see ``RedirectPolicy/keepsHeadersAcrossOrigins``.
        public var keepsHeadersAcrossOrigins: Bool = false
        /// The certificate authorities the client's own transport trusts instead of the system's (curl transport
        /// only); `nil` trusts what the environment names, else the system's. Unused when a transport is given.
        public var trustedCertificates: TrustedCertificates? = nil
        /// When to retry.
        public var retryPolicy: RetryPolicy
        /// The `User-Agent` sent when a request has none; `nil` sends none of the client's own.
        public var userAgent: String?
        /// Hooks applied in order to every attempt of every request.
        public var adapters: [any RequestAdapter]
        /// Called after each attempt, with its outcome and the retry decision.
        public var onAttempt: (@Sendable (AttemptEvent) -> Void)?

        /// The default `User-Agent`, which names this package and its version (sites refuse anonymous clients
        /// first).
        public static let defaultUserAgent = "Pixpipe/\(pixpipeVersion)"
        /// The package's version, as the default `User-Agent` and `pixpipe --version` give it.
        public static let pixpipeVersion = "0.1.0"
        /// The default body limit: 100 MiB.
        public static let defaultMaxBodyBytes = 100 << 20

        /// A configuration; every argument has the documented default.
        public init(
            baseURL: URL? = nil, maxConcurrentRequests: Int = 6, timeout: Duration = .seconds(30),
            maxBodyBytes: Int = Configuration.defaultMaxBodyBytes,
            maxRedirects: Int = RedirectPolicy.defaultMaxRedirects, allowsInsecureRedirects: Bool = false,
            retryPolicy: RetryPolicy = RetryPolicy(), userAgent: String? = Configuration.defaultUserAgent,
            adapters: [any RequestAdapter] = [], onAttempt: (@Sendable (AttemptEvent) -> Void)? = nil
        ) {
            self.baseURL = baseURL
            self.maxConcurrentRequests = max(1, maxConcurrentRequests)
            self.timeout = timeout
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
            self.allowsInsecureRedirects = allowsInsecureRedirects
            self.retryPolicy = retryPolicy
            self.userAgent = userAgent
            self.adapters = adapters
            self.onAttempt = onAttempt
        }
    }
}
