/// A status line plus header fields, serialized as HTTP/1.1 bytes.
struct ResponseHead: Sendable {
    /// The status code.
    var status: Int
    /// Header fields in the order they are sent.
    var fields: [(name: String, value: String)]

    /// Creates a head with `headers` in name order, so responses are byte-for-byte reproducible.
    init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        self.fields = headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { (name: $0.key, value: $0.value) }
    }

    /// Whether a field named `name` (case-insensitive) is present.
    func contains(_ name: String) -> Bool {
        fields.contains { $0.name.lowercased() == name.lowercased() }
    }

    /// Adds a field unless one with that name is already present.
    mutating func addIfAbsent(_ name: String, _ value: String) {
        if !contains(name) { fields.append((name: name, value: value)) }
    }

    /// The status line, the fields and the blank line that ends the head.
    var serialized: [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The customary reason phrase; clients ignore it, but it keeps captures readable.
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
