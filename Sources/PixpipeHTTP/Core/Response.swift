import Foundation

/// A converted value together with the response metadata it came with.
///
/// ```swift
/// let response = try await client.response(for: Request<JSON>(path: "/items"))
/// print(response.statusCode, response.url, response.value["count"] ?? .null)
/// ```
public struct Response<Value: Sendable>: Sendable {
    /// The converted body.
    public var value: Value
    /// Status, headers and final URL.
    public var metadata: ResponseMetadata

    /// A response from its parts.
    public init(value: Value, metadata: ResponseMetadata) {
        self.value = value
        self.metadata = metadata
    }

    /// The HTTP status code.
    public var statusCode: Int { metadata.statusCode }
    /// The response headers.
    public var headers: HTTPHeaders { metadata.headers }
    /// The final URL after redirects.
    public var url: URL { metadata.url }
}
