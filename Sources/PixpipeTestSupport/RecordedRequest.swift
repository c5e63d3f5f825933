import Foundation

/// One request as the ``TestHTTPServer`` received it.
///
/// ```swift
/// let request = server.requests("/image.png")[0]
/// #expect(request.header("Accept") == "image/png")
/// ```
public struct RecordedRequest: Sendable, Hashable {
    /// The method, as sent (`GET`, `HEAD`, `POST`, ...).
    public let method: String
    /// The request target as sent on the request line: path plus `?query` when there is one.
    public let target: String
    /// The path part of the target, without the query string.
    public let path: String
    /// The query string without its `?`, or nil when the target has none.
    public let query: String?
    /// The protocol version from the request line (`HTTP/1.1`).
    public let httpVersion: String
    /// Header fields with lowercased names; repeated fields are joined with ", ".
    public let headers: [String: String]
    /// The body, de-chunked when it was sent with `Transfer-Encoding: chunked`.
    public let body: [UInt8]

    /// Creates a request record; `path` and `query` are split from `target`.
    public init(method: String, target: String, httpVersion: String = "HTTP/1.1", headers: [String: String], body: [UInt8]) {
        self.method = method
        self.target = target
        self.httpVersion = httpVersion
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        self.headers = lowercased
        self.body = body
        let pathAndQuery = Self.originForm(of: target)
        if let mark = pathAndQuery.firstIndex(of: "?") {
            path = String(pathAndQuery[..<mark])
            query = String(pathAndQuery[pathAndQuery.index(after: mark)...])
        } else {
            path = pathAndQuery
            query = nil
        }
    }

    /// The value of the header field `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// Whether the client asked to keep the connection open after this response.
    ///
    /// HTTP/1.1 keeps it unless `Connection: close`; HTTP/1.0 closes it unless `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        let options = (header("connection") ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if options.contains("close") { return false }
        return httpVersion == "HTTP/1.1" || options.contains("keep-alive")
    }

    /// Strips `http://host` from an absolute-form target, so routes match on the path either way.
    private static func originForm(of target: String) -> String {
        guard let schemeEnd = target.range(of: "://") else { return target }
        let afterScheme = target[schemeEnd.upperBound...]
        guard let pathStart = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = String(afterScheme[pathStart...])
        return rest.hasPrefix("?") ? "/" + rest : rest
    }
}
