import Foundation

/// A typed HTTP request: what to send, what to accept, and the type the body converts to.
///
/// `Value` is any ``ResponseConvertible`` type (``JSON``, `String`, `Data`, an image, a
/// ``DecodableResponse`` model) or any plain `Decodable` model, alone or in an array, read from the JSON
/// body at its root or at a key path given per request. Options left `nil` take the client's configuration.
///
/// ```swift
/// var request = Request<JSON>(path: "/search", query: [URLQueryItem(name: "q", value: "cats")])
/// request.timeout = .milliseconds(500)
/// request.acceptableContentTypes = ["application/json"]
/// let json = try await client.send(request)
/// let models = try await client.send(Request<[Model]>(path: "/models", keyPath: "data.model_list"))
/// ```
public struct Request<Value: Sendable>: Sendable {
    /// Where the request goes: an absolute URL, or a string resolved against the client's base URL (see
    /// ``RequestTarget/path(_:)`` for how the two are joined).
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
    /// The status codes converted to a value; others fail with ``HTTPError/httpStatus(code:url:bodyPrefix:)``.
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
    /// Builds the value from an accepted response; chosen by the initializer from what `Value` is.
    let conversion: ResponseConversion<Value>

    /// The one memberwise path every public initializer takes.
    init(
        target: RequestTarget, method: HTTPMethod, headers: HTTPHeaders, query: [URLQueryItem], body: RequestBody?,
        acceptableContentTypes: [String]?, conversion: ResponseConversion<Value>
    ) {
        self.target = target
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.timeout = nil
        self.acceptableStatusCodes = successCodeSet
        self.acceptableContentTypes = acceptableContentTypes
        self.maxBodyBytes = nil
        self.maxRedirects = nil
        self.retryPolicy = nil
        self.onProgress = nil
        self.bodyObserver = nil
        self.conversion = conversion
    }

    /// The same request (options included) converting to another type.
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
    /// A path (or absolute URL string) joined to the client's base URL, which is taken as a folder
    /// whether or not it ends in `/`: with the base `https://host/api`, `items.json` and
    /// `v2/items.json` give `https://host/api/items.json` and `https://host/api/v2/items.json`; a path
    /// starting with `/` starts from the host (`/items.json` gives `https://host/items.json`); `../x`,
    /// a query-only `?page=2` and an absolute URL string resolve as in a browser against that folder.
    ///
    /// ```swift
    /// let client = HTTPClient(configuration: .init(baseURL: URL(string: "https://host/api")))
    /// let items = try await client.send(Request<JSON>(target: .path("items.json")))   // /api/items.json
    /// ```
    case path(String)

    /// The absolute URL, with `query` appended; ``HTTPError/invalidURL(_:)`` when it cannot be built.
    /// `baseFolder` is the base URL as a folder (``folder(of:)``).
    func resolve(againstFolder baseFolder: URL?, query: [URLQueryItem]) throws(HTTPError) -> URL {
        let resolved: URL
        switch self {
        case .url(let url):
            resolved = url
        case .path(let string):
            guard let url = URL(string: string, relativeTo: baseFolder)?.absoluteURL else {
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

    /// `base` taken as a folder: its path ends in `/` (added when missing), its query and fragment dropped.
    ///
    /// RFC 3986 resolves `items.json` against `/api` to `/items.json`, dropping the last segment, which
    /// is right for a page's links and wrong for an API's base URL: nobody writing `/api` means its parent.
    static func folder(of base: URL?) -> URL? {
        guard let base else { return nil }
        var text = base.absoluteString
        // The first `?` or `#` after the scheme and authority starts the query or fragment.
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        if !text.hasSuffix("/") { text += "/" }
        return URL(string: text) ?? base
    }

    /// `url` when it is an absolute http(s) URL with a host. Without URLComponents, whose host lookup runs
    /// IDNA through ICU: that was most of a small request's client-side cost in profiles.
    private static func checked(_ url: URL) throws(HTTPError) -> URL {
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
