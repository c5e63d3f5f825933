import Foundation

/// A typed HTTP request: what to send, what to accept, and the type the body converts to.
///
/// Options left `nil` take the client's configuration.
///
/// ```swift
/// var request = Request<JSON>(path: "/search", query: [URLQueryItem(name: "q", value: "cats")])
/// request.timeout = .milliseconds(500)
/// request.acceptableContentTypes = ["application/json"]
/// let json = try await client.send(request)
/// ```
public struct Request<Value: ResponseConvertible>: Sendable {
    /// Where the request goes: an absolute URL, or a string resolved against the client's base URL.
    public var target: RequestTarget
    /// The method; `GET` by default.
    public var method: HTTPMethod
    /// Header fields sent with the request (the client adds `User-Agent` when absent).
    public var headers: HTTPHeaders
    /// Query items appended to the URL's own query, in order.
    public var query: [URLQueryItem]
    /// The body, if any; its content type is sent unless `headers` set `Content-Type`.
    public var body: RequestBody?
    /// The time one attempt may take, headers and body included; the client's default when `nil`.
    public var timeout: Duration?
    /// The status codes converted to a value; others fail with ``FetchError/httpStatus(code:url:bodyPrefix:)``.
    public var acceptableStatusCodes: Set<Int>
    /// Accepted `Content-Type` patterns such as `application/json` or `image/*`; `nil` accepts any.
    public var acceptableContentTypes: [String]?
    /// The most body bytes accepted; the client's limit when `nil`.
    public var maxBodyBytes: Int?
    /// The most redirects followed; the client's limit when `nil`.
    public var maxRedirects: Int?
    /// The retry policy for this request; the client's when `nil`.
    public var retryPolicy: RetryPolicy?
    /// Called as body bytes arrive, for each attempt.
    public var onProgress: (@Sendable (TransferProgress) -> Void)?
    /// Sees the body as it arrives, so a digest needs no second pass over it; see ``ResponseBodyObserver``.
    public var bodyObserver: (any ResponseBodyObserver)?

    /// A request for an absolute URL.
    public init(
        url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(target: .url(url), method: method, headers: headers, query: query, body: body)
    }

    /// A request for `path`, resolved against the client's base URL (an absolute URL string works too).
    public init(
        path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(target: .path(path), method: method, headers: headers, query: query, body: body)
    }

    /// A request for a target.
    public init(
        target: RequestTarget, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.target = target
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.timeout = nil
        self.acceptableStatusCodes = successCodeSet
        self.acceptableContentTypes = Value.defaultAcceptableContentTypes
        self.maxBodyBytes = nil
        self.maxRedirects = nil
        self.retryPolicy = nil
        self.onProgress = nil
        self.bodyObserver = nil
    }

    /// The same request converting to another type.
    package func converting<Other: ResponseConvertible>(to type: Other.Type) -> Request<Other> {
        var other = Request<Other>(target: target, method: method, headers: headers, query: query, body: body)
        other.timeout = timeout
        other.acceptableStatusCodes = acceptableStatusCodes
        other.maxBodyBytes = maxBodyBytes
        other.maxRedirects = maxRedirects
        other.retryPolicy = retryPolicy
        other.onProgress = onProgress
        other.bodyObserver = bodyObserver
        return other
    }
}

/// Where a request goes.
public enum RequestTarget: Sendable, Hashable {
    /// An absolute URL.
    case url(URL)
    /// A path (or absolute URL string) resolved against the client's base URL.
    case path(String)

    /// The absolute URL, with `query` appended; ``FetchError/invalidURL(_:)`` when it cannot be built.
    func resolve(against baseURL: URL?, query: [URLQueryItem]) throws(FetchError) -> URL {
        let resolved: URL
        switch self {
        case .url(let url):
            resolved = url
        case .path(let string):
            guard let url = URL(string: string, relativeTo: baseURL)?.absoluteURL else {
                throw .invalidURL(string)
            }
            resolved = url
        }
        if query.isEmpty { return try Self.checked(resolved.baseURL == nil ? resolved : resolved.absoluteURL) }
        guard resolved.scheme != nil, var components = URLComponents(url: resolved, resolvingAgainstBaseURL: true)
        else {
            throw .invalidURL(resolved.absoluteString)
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .unsupportedScheme(components.scheme ?? "", url: resolved)
        }
        guard components.host.map({ !$0.isEmpty }) ?? false else {
            throw .invalidURL(resolved.absoluteString)
        }
        if !query.isEmpty {
            // Encoded by hand: URLComponents leaves `+` and `&`-like characters that servers misread.
            let added = query.map { item in
                FormEncoding.escape(item.name, spaceAsPlus: false)
                    + (item.value.map { "=" + FormEncoding.escape($0, spaceAsPlus: false) } ?? "")
            }
            components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + added)
                .joined(separator: "&")
        }
        guard let url = components.url else { throw .invalidURL(resolved.absoluteString) }
        return url
    }

    /// `url` when it is an absolute http(s) URL with a host. Without URLComponents, whose host lookup runs
    /// IDNA through ICU: that was most of a small request's client-side cost in profiles.
    private static func checked(_ url: URL) throws(FetchError) -> URL {
        guard let scheme = url.scheme else { throw .invalidURL(url.absoluteString) }
        guard scheme.caseInsensitiveEquals("http") || scheme.caseInsensitiveEquals("https") else {
            throw .unsupportedScheme(scheme, url: url)
        }
        guard url.host(percentEncoded: true).map({ !$0.isEmpty }) ?? false else {
            throw .invalidURL(url.absoluteString)
        }
        return url
    }
}

/// 200 to 299, the default acceptable statuses, built once: building the set for every request showed in
/// profiles of thousands of small requests (a generic type cannot hold a stored static).
private let successCodeSet = Set(200..<300)
