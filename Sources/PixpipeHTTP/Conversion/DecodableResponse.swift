import Foundation

/// A `Decodable` model that names where it is found in JSON responses, and the decoder to read it with.
///
/// Not needed to request a model: `Request<Model>` and `Request<[Model]>` take any `Decodable`, and a key
/// path given to a request (`Request<[Model]>(path:keyPath:)`) wins over the type's own. Conform when every
/// endpoint nests the model the same way, or when it needs a configured decoder.
///
/// ```swift
/// struct Comic: DecodableResponse {
///     static let keyPath: String? = "data.comic"       // decode the object found there
///     static let listKeyPath: String? = "data.comics"  // where `[Comic]` is found
///     var title: String
/// }
/// let comic = try await client.send(Request<Comic>(path: "/comic/1"))
/// let comics = try await client.send(Request<[Comic]>(path: "/comics"))
/// ```
public protocol DecodableResponse: Decodable, ResponseConvertible {
    /// Where a single value is found in the JSON body; `nil` (the default) for the root.
    static var keyPath: String? { get }
    /// Where an array of values is found when requesting `[Self]`; `nil` (the default) for the root.
    static var listKeyPath: String? { get }
    /// The decoder to use (date and key strategies); a plain `JSONDecoder` by default.
    static var decoder: JSONDecoder { get }
}

extension DecodableResponse {
    /// The root.
    public static var keyPath: String? { nil }
    /// The root.
    public static var listKeyPath: String? { nil }
    /// A plain `JSONDecoder`.
    public static var decoder: JSONDecoder { JSONDecoder() }

    /// Decodes the value at ``keyPath`` from the JSON body.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        self = try JSONBodyDecoding.decode(Self.self, from: body, at: Self.keyPath, decoder: Self.decoder)
    }
}

extension Array: ResponseConvertible where Element: DecodableResponse {
    /// Decodes an array of `Element` found at `Element.listKeyPath`.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        self = try JSONBodyDecoding.decode(
            [Element].self, from: body, at: Element.listKeyPath, decoder: Element.decoder)
    }
}

/// A wrapper that converts any `Decodable` type from a JSON body at its root.
///
/// `Request<User>` does the same without the wrapper; this stays for code written before it could.
///
/// ```swift
/// let user = try await client.send(Request<Decoded<User>>(path: "/me")).value
/// let same = try await client.send(Request<User>(path: "/me"))
/// ```
public struct Decoded<Model: Decodable & Sendable>: ResponseConvertible {
    /// The decoded model.
    public var value: Model

    /// Decodes `Model` from the body's root.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        value = try JSONBodyDecoding.decode(Model.self, from: body, at: nil, decoder: JSONDecoder())
    }
}

/// Decoding of JSON bodies, directly from the bytes at the root or through ``JSON`` below a key path.
enum JSONBodyDecoding {
    /// Decodes `type` from `body`, at `keyPath` when given.
    static func decode<Model: Decodable>(
        _ type: Model.Type, from body: Data, at keyPath: String?, decoder: JSONDecoder
    ) throws(ConversionError) -> Model {
        guard let keyPath else {
            do {
                return try decoder.decode(Model.self, from: body)
            } catch let error as DecodingError {
                if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                    throw .invalidJSON(reason: JSON.reason(for: error))
                }
                throw .decodingFailed(
                    type: String(describing: Model.self), keyPath: nil, reason: JSON.reason(for: error))
            } catch {
                throw .invalidJSON(reason: JSON.reason(for: error))
            }
        }
        return try JSON(data: body).decode(Model.self, at: keyPath, decoder: decoder)
    }
}
