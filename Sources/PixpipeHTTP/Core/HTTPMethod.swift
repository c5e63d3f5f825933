/// An HTTP request method, such as `GET` or `POST`.
///
/// ```swift
/// let request = Request<JSON>(url: url, method: .post)
/// ```
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method token sent on the wire, upper case.
    public let rawValue: String

    /// A method from its token; the token is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: submit data; not idempotent, so never retried.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: modify part of a resource; not idempotent, so never retried.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what the server allows.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 9.2.2),
    /// which is what makes a retry safe.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// The method token.
    public var description: String { rawValue }
}
