import Foundation

// Two families of initializers pick the conversion from what `Value` is. A type that is both
// `ResponseConvertible` and `Decodable` (`String`, `Data`, ``JSON``, a ``DecodableResponse`` model or an
// array of them) matches both; the `Decodable` family's initializers without a key path are disfavoured,
// so such a type keeps its own conversion, and only a key path given to the request switches it to JSON
// decoding at that path.

extension Request where Value: ResponseConvertible {
    /// A request for an absolute URL.
    ///
    /// ```swift
    /// let cover = try await client.send(Request<Image>(url: comic.img))
    /// ```
    public init(
        url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(target: .url(url), method: method, headers: headers, query: query, body: body)
    }

    /// A request for `path`, joined to the client's base URL as ``RequestTarget/path(_:)`` says (an
    /// absolute URL string works too).
    ///
    /// ```swift
    /// let names = try await client.send(Request<String>(path: "names.txt"))
    /// ```
    public init(
        path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(target: .path(path), method: method, headers: headers, query: query, body: body)
    }

    /// A request for a target, converted by `Value`'s ``ResponseConvertible/init(body:metadata:)``.
    ///
    /// ```swift
    /// let json = try await client.send(Request<JSON>(target: .path("models.json")))
    /// ```
    public init(
        target: RequestTarget, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(
            target: target, method: method, headers: headers, query: query, body: body,
            acceptableContentTypes: Value.defaultAcceptableContentTypes, conversion: .convertible)
    }
}

extension Request where Value: Decodable {
    /// A request for an absolute URL whose JSON body decodes to any `Decodable` model (or `[Model]`), at the
    /// body's root.
    ///
    /// ```swift
    /// struct Item: Decodable { var name: String }
    /// let items = try await client.send(Request<[Item]>(url: itemsURL))
    /// ```
    @_disfavoredOverload
    public init(
        url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(url: url, keyPath: nil, method: method, headers: headers, query: query, body: body)
    }

    /// A request for `path` against the client's base URL whose JSON body decodes to any `Decodable` model
    /// (or `[Model]`), at the body's root.
    ///
    /// ```swift
    /// let me = try await client.send(Request<User>(path: "me"))
    /// ```
    @_disfavoredOverload
    public init(
        path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(path: path, keyPath: nil, method: method, headers: headers, query: query, body: body)
    }

    /// A request for a target whose JSON body decodes to any `Decodable` model (or `[Model]`), at the
    /// body's root.
    ///
    /// ```swift
    /// let me = try await client.send(Request<User>(target: .path("me")))
    /// ```
    @_disfavoredOverload
    public init(
        target: RequestTarget, method: HTTPMethod = .get, headers: HTTPHeaders = [:], query: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.init(target: target, keyPath: nil, method: method, headers: headers, query: query, body: body)
    }

    /// A request for an absolute URL whose JSON body decodes to `Value` from the value at `keyPath` (dotted,
    /// a number indexes an array: `data.items.0`; the root when `nil`).
    ///
    /// The key path belongs to this request, so one model reads from endpoints that nest it differently,
    /// and it wins over a ``DecodableResponse``'s own ``DecodableResponse/keyPath`` or
    /// ``DecodableResponse/listKeyPath``. `decoder` defaults to the ``DecodableResponse/decoder`` of such a
    /// model, else a plain `JSONDecoder`.
    ///
    /// ```swift
    /// let models = try await client.send(Request<[Model]>(url: url, keyPath: "data.model_list"))
    /// ```
    public init(
        url: URL, keyPath: String?, decoder: JSONDecoder? = nil, method: HTTPMethod = .get,
        headers: HTTPHeaders = [:], query: [URLQueryItem] = [], body: RequestBody? = nil
    ) {
        self.init(
            target: .url(url), keyPath: keyPath, decoder: decoder, method: method, headers: headers, query: query,
            body: body)
    }

    /// A request for `path` against the client's base URL whose JSON body decodes to `Value` from the value
    /// at `keyPath`; see ``init(url:keyPath:decoder:method:headers:query:body:)``.
    ///
    /// ```swift
    /// let featured = try await client.send(Request<[Model]>(path: "home.json", keyPath: "featured.models"))
    /// let all = try await client.send(Request<[Model]>(path: "models.json", keyPath: "data.model_list"))
    /// ```
    public init(
        path: String, keyPath: String?, decoder: JSONDecoder? = nil, method: HTTPMethod = .get,
        headers: HTTPHeaders = [:], query: [URLQueryItem] = [], body: RequestBody? = nil
    ) {
        self.init(
            target: .path(path), keyPath: keyPath, decoder: decoder, method: method, headers: headers, query: query,
            body: body)
    }

    /// A request for a target whose JSON body decodes to `Value` from the value at `keyPath`; see
    /// ``init(url:keyPath:decoder:method:headers:query:body:)``.
    ///
    /// ```swift
    /// let user = try await client.send(Request<User>(target: .path("me"), keyPath: "data.user"))
    /// ```
    public init(
        target: RequestTarget, keyPath: String?, decoder: JSONDecoder? = nil, method: HTTPMethod = .get,
        headers: HTTPHeaders = [:], query: [URLQueryItem] = [], body: RequestBody? = nil
    ) {
        self.init(
            target: target, method: method, headers: headers, query: query, body: body, acceptableContentTypes: nil,
            conversion: .json(at: keyPath, decoder: decoder))
    }
}
