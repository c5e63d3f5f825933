import Foundation

/// A type that can be built from an HTTP response: its body bytes plus its metadata.
///
/// The client checks status and content type first, then calls ``init(body:metadata:)``; a failure
/// arrives as ``HTTPError/conversionFailed(_:url:)`` carrying the ``ConversionError``.
///
/// Adding a format takes a few lines:
///
/// ```swift
/// struct Lines: ResponseConvertible {
///     var lines: [String]
///     init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
///         let text = try String(body: body, metadata: metadata)
///         lines = text.split(separator: "\n").map(String.init)
///     }
/// }
/// let lines = try await client.send(Request<Lines>(path: "/names.txt"))
/// ```
public protocol ResponseConvertible: Sendable {
    /// Content types accepted when a request does not say (`nil` accepts any); patterns like `image/*` work.
    static var defaultAcceptableContentTypes: [String]? { get }

    /// Builds the value from a response body and its metadata.
    init(body: Data, metadata: ResponseMetadata) throws(ConversionError)
}

extension ResponseConvertible {
    /// Any content type is accepted unless a conformance says otherwise.
    public static var defaultAcceptableContentTypes: [String]? { nil }
}

extension Data: ResponseConvertible {
    /// The body bytes, unchanged.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        self = body
    }
}
