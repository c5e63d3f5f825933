/// The request line and header fields of one request, before its body is read.
struct RequestHead: Sendable, Hashable {
    /// The method token.
    let method: String
    /// The request target as sent.
    let target: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    let version: String
    /// Fields with lowercased names; repeats joined with ", " as RFC 9110 allows.
    let fields: [String: String]

    /// Parses the bytes before the blank line that ends the head.
    init(parsing bytes: ArraySlice<UInt8>) throws(HTTPRequestParseError) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let requestLine = lines.isEmpty ? "" : lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/1."),
            parts[0].allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" })
        else { throw .malformedRequestLine(requestLine) }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
        var fields: [String: String] = [:]
        for line in lines {
            // An obsolete folded continuation line starts with whitespace; RFC 9112 lets servers reject it.
            guard let colon = line.firstIndex(of: ":"), let first = line.first, first != " ", first != "\t" else {
                throw .malformedHeader(line)
            }
            let name = line[..<colon].lowercased()
            guard !name.contains(where: { $0 == " " || $0 == "\t" }) else { throw .malformedHeader(line) }
            let value = line[line.index(after: colon)...].trimmingSpacesAndTabs()
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        self.fields = fields
    }
}
