import Foundation

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

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .unsupportedCharset(let charset): "unsupported charset \(charset)"
        case .undecodableText(let charset): "body is not valid \(charset) text"
        case .invalidJSON(let reason): "body is not valid JSON: \(reason)"
        case .keyPathNotFound(let path): "no JSON value at key path \(path)"
        case .decodingFailed(let type, let keyPath, let reason):
            "cannot decode \(type) at \(keyPath ?? "the root"): \(reason)"
        case .missingValue(let type): "no \(type) value in the response"
        case .underlying(let error): String(describing: error)
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
        case (.underlying(let a), .underlying(let b)):
            type(of: a) == type(of: b) && String(reflecting: a) == String(reflecting: b)
        default: false
        }
    }
}
