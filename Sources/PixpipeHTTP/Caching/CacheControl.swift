import Foundation

/// The directives of a response's `Cache-Control` fields that a private cache acts on (RFC 9111 5.2.2).
///
/// ```swift
/// let directives = CacheControl(headers["Cache-Control"] ?? "")
/// directives.maxAge      // 600 for "public, max-age=600"
/// ```
///
/// `s-maxage`, `proxy-revalidate` and `public` speak to shared caches; this is a private one, so they
/// are read past. Unknown directives are ignored, as RFC 9111 5.2.3 requires. A directive given twice
/// keeps its first value; a `max-age` that is not a number is treated as `0` (stale at once), the
/// conservative reading RFC 9111 4.2.1 suggests for invalid freshness information.
public struct CacheControl: Sendable, Hashable {
    /// `no-store`: the response must not be stored at all.
    public var noStore = false
    /// `no-cache`: the response may be stored but must be revalidated before every use.
    public var noCache = false
    /// `must-revalidate`: once stale, the response must not be used without revalidation, even when the
    /// origin cannot be reached.
    public var mustRevalidate = false
    /// `max-age`: the freshness lifetime in seconds.
    public var maxAge: Int?

    /// No directives.
    public init() {}

    /// The directives of one or more comma-separated `Cache-Control` values.
    public init(_ value: String) {
        for part in value.split(separator: ",") {
            let directive = part.split(separator: "=", maxSplits: 1)
            guard let rawName = directive.first else { continue }
            let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
            let argument = directive.count > 1 ? directive[1].trimmingCharacters(in: .whitespaces) : nil
            switch name {
            case "no-store": noStore = true
            // `no-cache="Field"` restricts only the named fields; being conservative, it revalidates all.
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "max-age" where maxAge == nil:
                let unquoted = argument.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                // A huge number saturates rather than failing (RFC 9111 1.2.2 allows 2^31 as "infinity").
                maxAge = unquoted.flatMap(Self.seconds) ?? 0
            default: continue
            }
        }
    }

    /// The directives of every `Cache-Control` field of `headers`, taken together.
    public init(headers: HTTPHeaders) {
        let values = headers.filter { $0.name.caseInsensitiveEquals("Cache-Control") }.map(\.value)
        self.init(values.joined(separator: ","))
    }

    /// A delta-seconds value: digits only, saturating at 2^31.
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text).map { min($0, 1 << 31) } ?? (1 << 31)
    }
}
