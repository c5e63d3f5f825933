/// A response's status line and header fields, as the header callback collected them.
struct CurlResponseHead: Sendable, Hashable {
    /// The status code (200, 404, ...).
    var statusCode: Int
    /// The protocol from the status line (`HTTP/1.1`, `HTTP/2`).
    var httpVersion: String
    /// Header fields in the order received.
    var headers: [CurlHeaderField]

    /// The first value of a header, compared case-insensitively.
    func value(for name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The Content-Length header, when present and a valid non-negative number.
    var contentLength: Int64? {
        guard let text = value(for: "Content-Length"), let length = Int64(text), length >= 0 else { return nil }
        return length
    }

    /// Whether the body arrives with a content coding (then Content-Length counts encoded bytes).
    var hasContentEncoding: Bool {
        guard let coding = value(for: "Content-Encoding") else { return false }
        return !coding.caseInsensitiveEquals("identity")
    }
}
