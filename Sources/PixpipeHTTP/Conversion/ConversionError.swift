import Foundation
import PixpipeLocking

/// Why a response body could not be converted to the requested type.
public enum ConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `charset` named by `Content-Type` is not one this package knows.
    case unsupportedCharset(String)
    /// The bytes are not valid text in `charset`.
    case undecodableText(charset: String)
    /// The body is not JSON; `reason` comes from the parser.
    case invalidJSON(reason: String)
    /// No value exists at the dotted key path (such as `data.items.0`).
    case keyPathNotFound(String)
    /// A `Decodable` type could not be decoded from the JSON found at `keyPath` (the root when `nil`).
    case decodingFailed(type: String, keyPath: String?, reason: String)
    /// A value was required but the transform produced none (see `Result.flatMap(_:)`).
    case missingValue(type: String)
    /// A converter's own error, such as an image decoding error.
    case underlying(any Error & Sendable)
    /// The body is an HTML page (a login wall, a captive portal, an error page sent with `200`), not the
    /// requested data; `title` is the page's `<title>` and `excerpt` the start of the page, each one escaped
    /// line (the excerpt at most ``HTTPError/bodyExcerptLength`` characters; the description shows less).
    ///
    /// ```swift
    /// } catch .conversionFailed(.htmlPage(let title, _), let url) {
    ///     print("\(url?.absoluteString ?? "") sent a web page:", title ?? "untitled")
    /// }
    /// ```
    case htmlPage(title: String?, excerpt: String)

    /// A one-line explanation for people; text from the body (a parser's reason, a page's excerpt) has
    /// its control characters escaped, so it is safe to print.
    public var description: String {
        UntrustedText.escaped(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case .unsupportedCharset(let charset): "unsupported charset \(charset)"
        case .undecodableText(let charset): "body is not valid \(charset) text"
        case .invalidJSON(let reason): "body is not valid JSON: \(reason)"
        case .keyPathNotFound(let path): "no JSON value at key path \(path)"
        case .decodingFailed(let type, let keyPath, let reason):
            "cannot decode \(type) at \(keyPath ?? "the root"): \(reason)"
        case .missingValue(let type): "no \(type) value in the response"
        case .underlying(let error): String(describing: error)
        case .htmlPage(let title, let excerpt):
            "body is an HTML page" + (title.map { " titled \"\($0)\"" } ?? "") + ", not the requested data: "
                + UntrustedText.excerpt(excerpt, limit: HTTPError.descriptionExcerptLength)
        }
    }

    /// Equal when the cases and payloads match; underlying errors compare by type and description.
    public static func == (lhs: ConversionError, rhs: ConversionError) -> Bool {
        switch (lhs, rhs) {
        case (.unsupportedCharset(let a), .unsupportedCharset(let b)): a == b
        case (.undecodableText(let a), .undecodableText(let b)): a == b
        case (.invalidJSON(let a), .invalidJSON(let b)): a == b
        case (.keyPathNotFound(let a), .keyPathNotFound(let b)): a == b
        case (.decodingFailed(let t1, let k1, let r1), .decodingFailed(let t2, let k2, let r2)):
            t1 == t2 && k1 == k2 && r1 == r2
        case (.missingValue(let a), .missingValue(let b)): a == b
        case (.htmlPage(let t1, let e1), .htmlPage(let t2, let e2)): t1 == t2 && e1 == e2
        case (.underlying(let a), .underlying(let b)):
            type(of: a) == type(of: b) && String(reflecting: a) == String(reflecting: b)
        default: false
        }
    }

    /// A stable short name of the case: `unsupported-charset`, `undecodable-text`, `invalid-json`,
    /// `key-path-not-found`, `decoding-failed`, `missing-value`, `html-page` or `conversion-failed`.
    public var shortName: String {
        switch self {
        case .unsupportedCharset: "unsupported-charset"
        case .undecodableText: "undecodable-text"
        case .invalidJSON: "invalid-json"
        case .keyPathNotFound: "key-path-not-found"
        case .decodingFailed: "decoding-failed"
        case .missingValue: "missing-value"
        case .underlying: "conversion-failed"
        case .htmlPage: "html-page"
        }
    }
}
