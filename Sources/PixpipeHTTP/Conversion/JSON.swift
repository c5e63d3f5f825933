import Foundation

/// A JSON value: object, array, string, number, bool or null, with subscripts and dotted key paths.
///
/// ```swift
/// let json = try await client.send(Request<JSON>(path: "/models"))
/// let first = json["data.model_list.0.name"]?.stringValue
/// let count = json["data"]?["model_list"]?.arrayValue?.count
/// ```
public enum JSON: Sendable, Hashable {
    /// An object (dictionary) of members.
    case object([String: JSON])
    /// An array of values.
    case array([JSON])
    /// A string.
    case string(String)
    /// A number, as a `Double`.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Parses JSON text; any top-level value (not only objects and arrays) is accepted.
    public init(data: Data) throws(ConversionError) {
        do {
            self = try JSONDecoder().decode(JSON.self, from: data)
        } catch {
            throw .invalidJSON(reason: JSON.reason(for: error))
        }
    }

    /// The member `key` of an object, or `nil` when this is not an object or has no such member.
    public subscript(key key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array, or `nil` when this is not an array or the index is out of range.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The value at a dotted key path such as `data.items.0.url`; a numeric component indexes an array.
    public subscript(keyPath: String) -> JSON? {
        var current: JSON? = self
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            guard let value = current else { return nil }
            let name = String(component)
            if case .array = value, let index = Int(name) {
                current = value[index]
            } else {
                current = value[key: name]
            }
        }
        return current
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if this is a number with no fractional part that fits.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value else { return nil }
        return Int(exactly: value)
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short, single-line reason from a decoding error, for messages.
    static func reason(for error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context),
            DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return String(describing: error)
        }
    }
}
