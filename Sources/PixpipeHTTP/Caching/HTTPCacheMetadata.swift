import Foundation

/// What a cache keeps about a stored response to judge its freshness: the status, the headers, and when it
/// was requested and received (RFC 9111).
///
/// ```swift
/// let metadata = HTTPCacheMetadata(response: response.metadata, requestTime: sent, responseTime: received)
/// switch HTTPCachePolicy.http.use(metadata, now: Date()) {
/// case .fresh: ...                                   // serve the stored bytes
/// case .revalidate(let conditional): ...             // If-None-Match / If-Modified-Since; 304 keeps the bytes
/// case .refetch: ...
/// }
/// ```
///
/// Times are wall-clock `Date`s because HTTP's are; every computation takes `now` so that tests fix it.
public struct HTTPCacheMetadata: Sendable, Hashable {
    /// The status code of the stored response.
    public var statusCode: Int
    /// The stored response's header fields, hop-by-hop fields removed.
    public var headers: HTTPHeaders
    /// When the request that got the response was sent (`request_time` of RFC 9111 4.2.3).
    public var requestTime: Date
    /// When the response was received (`response_time`).
    public var responseTime: Date

    /// The longest heuristic freshness lifetime given to a response that states none: one day. RFC 9111
    /// 4.2.2 leaves the bound to the cache; beyond a day, caches used to have to warn the user (RFC 7234's
    /// warning 113), which is the line most caches still draw.
    public static let heuristicLifetimeLimit: TimeInterval = 86_400

    /// The status codes RFC 9110 15.1 makes heuristically cacheable.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Fields that describe one connection, not the response (RFC 9110 7.6.1), and are never stored.
    static let hopByHop = ["Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade"]

    /// Metadata from its parts; hop-by-hop fields of `headers`, and those `Connection` names, are dropped.
    public init(statusCode: Int, headers: HTTPHeaders, requestTime: Date, responseTime: Date) {
        self.statusCode = statusCode
        self.headers = Self.storable(headers)
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// Metadata of a received response.
    public init(response: ResponseMetadata, requestTime: Date, responseTime: Date) {
        self.init(
            statusCode: response.statusCode, headers: response.headers, requestTime: requestTime,
            responseTime: responseTime)
    }

    /// The `Cache-Control` directives.
    public var cacheControl: CacheControl { CacheControl(headers: headers) }

    /// The `Date` header: when the origin made the response.
    public var date: Date? { headers["Date"].flatMap { HTTPDate.parse($0, now: responseTime) } }

    /// The `Age` header in seconds (0 when absent or unreadable).
    public var age: Int {
        headers["Age"].flatMap { CacheControl.seconds($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// The `ETag` header as sent (quotes and any `W/` included).
    public var entityTag: String? { headers["ETag"] }

    /// The `Last-Modified` header as sent.
    public var lastModified: String? { headers["Last-Modified"] }

    /// Whether the response has a validator, so that a stale copy can be revalidated instead of refetched.
    public var hasValidators: Bool { entityTag != nil || lastModified != nil }

    /// The headers that make a request conditional on the stored copy: `If-None-Match` with the entity tag,
    /// `If-Modified-Since` with `Last-Modified` as sent (RFC 9110 13.1.3 asks for the validator unchanged).
    public var conditionalHeaders: HTTPHeaders {
        var conditional = HTTPHeaders()
        if let entityTag { conditional["If-None-Match"] = entityTag }
        if let lastModified { conditional["If-Modified-Since"] = lastModified }
        return conditional
    }

    /// Whether RFC 9111 3 lets a private cache store the response: no `no-store`, and either an explicit
    /// lifetime (`max-age`, `Expires`) or a heuristically cacheable status.
    public var isStorable: Bool {
        let directives = cacheControl
        if directives.noStore { return false }
        return directives.maxAge != nil || headers["Expires"] != nil
            || Self.heuristicallyCacheable.contains(statusCode)
    }

    /// How long the response stays fresh from its creation, in seconds (RFC 9111 4.2.1): `max-age`, else
    /// `Expires` less `Date`, else the heuristic (10% of the time since `Last-Modified`, at most
    /// ``heuristicLifetimeLimit``), else 0. An `Expires` that is not a date means already expired.
    public var freshnessLifetime: TimeInterval {
        if let maxAge = cacheControl.maxAge { return TimeInterval(maxAge) }
        let dateValue = date ?? responseTime
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires, now: responseTime) else { return 0 }
            return max(0, expiry.timeIntervalSince(dateValue))
        }
        guard Self.heuristicallyCacheable.contains(statusCode),
            let modified = lastModified.flatMap({ HTTPDate.parse($0, now: responseTime) })
        else { return 0 }
        return min(Self.heuristicLifetimeLimit, max(0, dateValue.timeIntervalSince(modified)) / 10)
    }

    /// The age of the response at `now`, in seconds (RFC 9111 4.2.3): the larger of the apparent age (from
    /// `Date`) and `Age` corrected by the request's round trip, plus the time since it was received.
    public func currentAge(now: Date) -> TimeInterval {
        let apparentAge = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAge = TimeInterval(age) + responseDelay
        let initialAge = max(apparentAge, correctedAge)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return initialAge + residentTime
    }

    /// Whether the stored response may be used at `now` without asking the origin: its lifetime exceeds
    /// its age, and it has no `no-cache` (which asks for revalidation on every use).
    public func isFresh(now: Date) -> Bool {
        !cacheControl.noCache && freshnessLifetime > currentAge(now: now)
    }

    /// Whether a stale copy may be used when the origin cannot be reached (RFC 9111 4.2.4): not with
    /// `must-revalidate` or `no-cache`.
    public var mayServeStale: Bool {
        let directives = cacheControl
        return !directives.mustRevalidate && !directives.noCache
    }

    /// The metadata after a `304 Not Modified` with `headers` (RFC 9111 4.3.4 and 3.2): each field the
    /// `304` carries replaces the stored fields of that name, except `Content-Length` (which describes the
    /// empty `304`, not the stored body) and hop-by-hop fields; the times become the revalidation's, so
    /// freshness restarts from it. The status stays the stored one.
    public func updated(with headers: HTTPHeaders, requestTime: Date, responseTime: Date) -> HTTPCacheMetadata {
        var merged = self.headers
        var replaced = Set<String>()
        for field in Self.storable(headers) where !field.name.caseInsensitiveEquals("Content-Length") {
            let name = field.name.lowercased()
            if replaced.insert(name).inserted { merged.remove(name: field.name) }
            merged.add(name: field.name, value: field.value)
        }
        var updated = self
        updated.headers = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// `headers` without the hop-by-hop fields and the fields their `Connection` header names.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        var dropped = hopByHop.map { $0.lowercased() }
        for field in headers where field.name.caseInsensitiveEquals("Connection") {
            dropped += field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard headers.contains(where: { dropped.contains($0.name.lowercased()) }) else { return headers }
        var kept = HTTPHeaders()
        for field in headers where !dropped.contains(field.name.lowercased()) {
            kept.add(name: field.name, value: field.value)
        }
        return kept
    }
}

/// Stored as JSON by disk caches: the headers as `[name, value]` pairs in order (so repeated fields and
/// their order survive), the times as seconds since 1970.
extension HTTPCacheMetadata: Codable {
    private enum CodingKeys: String, CodingKey {
        case statusCode = "status"
        case headers
        case requestTime = "requested"
        case responseTime = "received"
    }

    /// Decodes the metadata a disk cache stored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try container.decode([[String]].self, forKey: .headers)
        var headers = HTTPHeaders()
        for pair in pairs {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .headers, in: container, debugDescription: "a header is not a [name, value] pair")
            }
            headers.add(name: pair[0], value: pair[1])
        }
        self.init(
            statusCode: try container.decode(Int.self, forKey: .statusCode), headers: headers,
            requestTime: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .requestTime)),
            responseTime: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .responseTime)))
    }

    /// Encodes the metadata for a disk cache.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(headers.map { [$0.name, $0.value] }, forKey: .headers)
        try container.encode(requestTime.timeIntervalSince1970, forKey: .requestTime)
        try container.encode(responseTime.timeIntervalSince1970, forKey: .responseTime)
    }
}
