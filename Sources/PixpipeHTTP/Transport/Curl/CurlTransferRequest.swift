import Foundation

/// One header field, in the order it was sent or received.
struct CurlHeaderField: Sendable, Hashable {
    /// The field name as written on the wire.
    var name: String
    /// The field value, without surrounding whitespace.
    var value: String
}

/// Transfer progress: bytes of body received so far and the expected total when known.
struct CurlTransferProgress: Sendable, Hashable {
    /// Body bytes received so far as they came over the wire, before any content decoding (libcurl's count).
    var bytesReceived: Int64
    /// The expected number of body bytes, when the server declared it.
    var bytesExpected: Int64?
}

/// Everything the engine needs to run one HTTP transfer; plain values so it can cross to the engine thread.
struct CurlTransferRequest: Sendable {
    /// The absolute http or https URL.
    var url: URL
    /// The request method (`GET`, `HEAD`, `POST`, ...).
    var method: String = "GET"
    /// Header fields to send, in order.
    var headers: [CurlHeaderField] = []
    /// The request body, if any.
    var body: Data?
    /// How long establishing the connection (including TLS) may take.
    var connectTimeout: Duration?
    /// How long the whole transfer may take, redirects included.
    var totalTimeout: Duration?
    /// How long the transfer may go without receiving a byte.
    var idleTimeout: Duration?
    /// How many redirects to follow; `nil` returns 3xx responses as they are.
    var maxRedirects: Int? = 10
    /// Whether an https URL may redirect to an http one.
    var allowsInsecureRedirects = false
    /// Whether every header goes on to another origin after a redirect (see ``RedirectPolicy/keepsHeadersAcrossOrigins``).
    var keepsHeadersAcrossOrigins = false
    /// The most body bytes to accept; more aborts the transfer with ``CurlTransferError/bodyTooLarge(limit:declaredLength:)``.
    var maxBodyBytes: Int64?
    /// The encodings to offer and decode, as an Accept-Encoding value; `nil` offers none.
    var acceptedEncodings: String? = "gzip, deflate"
    /// A PEM file of certificate authorities to trust instead of the system bundle.
    var caFile: String?
    /// A folder of hashed certificate files (`openssl rehash`) to trust instead of the system's.
    var caPath: String?
    /// Ask for the body from this offset on (`Range: bytes=N-`); the server may still answer 200 with all of it.
    var rangeStart: Int64?
    /// Called on the engine thread as body bytes arrive; must return quickly.
    var progress: (@Sendable (CurlTransferProgress) -> Void)?
}

/// What a finished transfer produced besides the body, which went to the sink.
struct CurlTransferOutcome: Sendable {
    /// The final response's status and headers (after redirects and 1xx responses).
    var head: CurlResponseHead
    /// The URL of the final response.
    var effectiveURL: URL
    /// How many body bytes the sink received (decoded bytes when an encoding was applied).
    var bodyByteCount: Int64
    /// How many redirects were followed.
    var redirectCount: Int
}
