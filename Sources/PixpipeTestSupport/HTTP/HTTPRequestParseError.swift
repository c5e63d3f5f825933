/// Why bytes from a client are not a valid HTTP/1.1 request; each maps to the status the server answers.
enum HTTPRequestParseError: Error, Sendable, Hashable {
    /// The request line and headers exceed `limit` bytes without ending (answered 431).
    case headerTooLarge(limit: Int)
    /// The request line is not `METHOD SP target SP HTTP/1.x`.
    case malformedRequestLine(String)
    /// A header line has no colon, an empty or spaced name, or is an obsolete folded line.
    case malformedHeader(String)
    /// `Content-Length` is not a decimal number, or repeated with different values.
    case invalidContentLength(String)
    /// A chunk of a chunked body is malformed.
    case malformedChunk(reason: String)
    /// The body exceeds `limit` bytes (answered 413).
    case bodyTooLarge(limit: Int)
    /// A transfer coding other than `chunked` was used (answered 501).
    case unsupportedTransferEncoding(String)

    /// The status code the server answers with before closing the connection.
    var responseStatus: Int {
        switch self {
        case .headerTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .malformedRequestLine, .malformedHeader, .invalidContentLength, .malformedChunk: 400
        }
    }
}
