import Foundation

extension JSON: Codable {
    /// Decodes any JSON value; `true`/`false` stay Booleans rather than becoming numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Encodes the value as the JSON it represents.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let elements): try container.encode(elements)
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// Decodes a `Decodable` type from the value at `keyPath` (the whole value when `nil`).
    ///
    /// ```swift
    /// let comic = try json.decode(Comic.self, at: "data.comic")
    /// ```
    public func decode<Model: Decodable>(
        _ type: Model.Type, at keyPath: String? = nil, decoder: JSONDecoder = JSONDecoder()
    ) throws(ConversionError) -> Model {
        var value = self
        if let keyPath {
            guard let found = self[keyPath] else { throw .keyPathNotFound(keyPath) }
            value = found
        }
        do {
            // Round-tripping through bytes lets the caller's JSONDecoder strategies (dates, keys) apply.
            let bytes = try JSONEncoder().encode(value)
            return try decoder.decode(Model.self, from: bytes)
        } catch {
            throw .decodingFailed(
                type: String(describing: Model.self), keyPath: keyPath, reason: JSON.reason(for: error))
        }
    }
}

extension JSON: ResponseConvertible {
    /// Parses the body as JSON.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        try self.init(data: body)
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number value.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// An array value.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// An object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
