import Foundation

/// How a ``Request`` turns an accepted response into its `Value`, chosen when the request is built.
///
/// Held by the request rather than required of `Value` as a protocol, so that a plain `Decodable` model (or
/// an array of them) needs no conformance, and a key path can belong to one request instead of the type.
struct ResponseConversion<Value: Sendable>: Sendable {
    /// Builds the value from the body and its metadata.
    let convert: @Sendable (Data, ResponseMetadata) throws(ConversionError) -> Value
}

extension ResponseConversion where Value: ResponseConvertible {
    /// The type's own ``ResponseConvertible/init(body:metadata:)``.
    static var convertible: Self {
        Self { body, metadata throws(ConversionError) in try Value(body: body, metadata: metadata) }
    }
}

extension ResponseConversion where Value: Decodable {
    /// JSON decoding of the value found at `keyPath` (the root when `nil`), with `decoder`, or when `nil`
    /// the decoder a ``DecodableResponse`` type (or array of them) names, else a plain `JSONDecoder`.
    static func json(at keyPath: String?, decoder: JSONDecoder?) -> Self {
        let decoder = decoder ?? Self.defaultDecoder
        return Self { body, _ throws(ConversionError) in
            try JSONBodyDecoding.decode(Value.self, from: body, at: keyPath, decoder: decoder)
        }
    }

    private static var defaultDecoder: JSONDecoder {
        if let model = Value.self as? any DecodableResponse.Type { return model.decoder }
        if let list = Value.self as? any ListOfDecodableResponses.Type { return list.elementDecoder }
        return JSONDecoder()
    }
}

/// An array of ``DecodableResponse`` models, whose decoder is the element type's.
private protocol ListOfDecodableResponses {
    /// The element type's decoder.
    static var elementDecoder: JSONDecoder { get }
}

extension Array: ListOfDecodableResponses where Element: DecodableResponse {
    fileprivate static var elementDecoder: JSONDecoder { Element.decoder }
}
