import Foundation

/// What a response says besides its body: the status code, the headers and the final URL after redirects.
public struct ResponseMetadata: Sendable, Hashable {
    /// The HTTP status code, such as 200.
    public var statusCode: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The URL that answered, after following redirects.
    public var url: URL
    /// The protocol that carried the response as its status line names it (`HTTP/1.1`, `HTTP/2`), when the
    /// transport reports it (the curl transport does; URLSession does not).
    public var httpVersion: String?

    /// Metadata from its parts.
    public init(statusCode: Int, headers: HTTPHeaders, url: URL, httpVersion: String? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.httpVersion = httpVersion
    }

    /// The `Content-Type` header, if any, as sent.
    public var contentType: String? { headers["Content-Type"] }

    /// The media type of `Content-Type` without parameters, lower-cased (`text/html` for `text/HTML; charset=x`).
    public var mediaType: String? {
        contentType.map(MediaType.essence(of:))
    }

    /// The `charset` parameter of `Content-Type`, lower-cased and unquoted, if present.
    public var charset: String? {
        contentType.flatMap { MediaType.parameter("charset", in: $0) }
    }
}
