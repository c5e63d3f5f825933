import Foundation

/// How a cache treats what HTTP says about storing and reusing responses.
///
/// ```swift
/// let policy: HTTPCachePolicy = .http
/// if policy.mayStore(metadata) { ... }
/// ```
public enum HTTPCachePolicy: String, Sendable, Hashable, CaseIterable {
    /// RFC 9111 as a private cache: `no-store` is not stored, a stale entry is revalidated.
    case http
    /// Every successful response is stored and used while present, never revalidated: for content that
    /// never changes at a URL, or when the headers cannot be trusted.
    case always
    /// Nothing is stored.
    case never

    /// Whether a response described by `metadata` may be stored under this policy.
    public func mayStore(_ metadata: HTTPCacheMetadata) -> Bool {
        switch self {
        case .http: metadata.isStorable
        case .always: (200..<300).contains(metadata.statusCode)
        case .never: false
        }
    }

    /// What to do with a stored entry described by `metadata` at `now`.
    public func use(_ metadata: HTTPCacheMetadata, now: Date) -> HTTPCacheUse {
        switch self {
        case .always: return .fresh
        case .never: return .refetch
        case .http:
            if metadata.isFresh(now: now) { return .fresh }
            return metadata.hasValidators ? .revalidate(metadata.conditionalHeaders) : .refetch
        }
    }
}

/// What a cache does with a stored entry: use it, ask the origin whether it changed, or fetch anew.
public enum HTTPCacheUse: Sendable, Hashable {
    /// The entry is fresh: use it without asking the origin.
    case fresh
    /// The entry is stale but has validators: send a request with these conditional headers; a `304`
    /// means the stored bytes still hold (update the entry with ``HTTPCacheMetadata/updated(with:requestTime:responseTime:)``).
    case revalidate(HTTPHeaders)
    /// The entry cannot be used or checked: fetch it unconditionally.
    case refetch
}
