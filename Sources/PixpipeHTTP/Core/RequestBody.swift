import Foundation

/// The body of a request: raw bytes, a form, or JSON, each with its `Content-Type`.
///
/// ```swift
/// request.body = .form(["q": "cats", "page": "2"])
/// request.body = try .json(NewItem(name: "x"))
/// ```
public struct RequestBody: Sendable, Hashable {
    /// The encoded bytes.
    public var data: Data
    /// The `Content-Type` sent with the body, unless the request's headers set one.
    public var contentType: String?

    /// Raw bytes with an optional content type.
    public init(data: Data, contentType: String? = nil) {
        self.data = data
        self.contentType = contentType
    }

    /// Raw bytes with an optional content type.
    public static func raw(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(data: data, contentType: contentType)
    }

    /// Text, UTF-8 encoded, sent as `text/plain; charset=utf-8` unless said otherwise.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(data: Data(text.utf8), contentType: contentType)
    }

    /// Fields in `application/x-www-form-urlencoded` form, in the order given.
    public static func form(_ fields: [(String, String)]) -> RequestBody {
        let encoded = fields.map { "\(FormEncoding.escape($0.0))=\(FormEncoding.escape($0.1))" }
        return RequestBody(
            data: Data(encoded.joined(separator: "&").utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Fields in `application/x-www-form-urlencoded` form, sorted by name so the body is stable.
    public static func form(_ fields: [String: String]) -> RequestBody {
        form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A JSON body encoded from `value`; an encoding failure is ``HTTPError/invalidRequestBody(reason:)``.
    public static func json(
        _ value: some Encodable, encoder: JSONEncoder = JSONEncoder()
    ) throws(HTTPError) -> RequestBody {
        do {
            return RequestBody(data: try encoder.encode(value), contentType: "application/json")
        } catch {
            throw .invalidRequestBody(reason: String(describing: error))
        }
    }
}

/// Percent-encoding for `application/x-www-form-urlencoded` (WHATWG URL standard).
enum FormEncoding {
    /// Characters left as they are; everything else is percent-encoded, and space becomes `+`.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._".utf8)

    /// `string` percent-encoded for a form body (space as `+`) or a query (space as `%20`).
    static func escape(_ string: String, spaceAsPlus: Bool = true) -> String {
        var result = ""
        for byte in string.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(UnicodeScalar(byte)))
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                result.append("+")
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    /// The string padded on the left with zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
