import Foundation

/// A hook every request passes through before each attempt: add headers, auth, common query parameters.
///
/// ```swift
/// configuration.adapters = [.headers(["X-Api-Key": key]), .query([URLQueryItem(name: "lang", value: "en")])]
/// ```
public protocol RequestAdapter: Sendable {
    /// Returns the request to send in place of `request`; throwing stops the request with that error.
    func adapt(_ request: TransportRequest) async throws(HTTPError) -> TransportRequest
}

/// An adapter made from a closure.
public struct ClosureAdapter: RequestAdapter {
    private let body: @Sendable (inout TransportRequest) throws(HTTPError) -> Void

    /// An adapter that edits the request in place.
    public init(_ body: @escaping @Sendable (inout TransportRequest) throws(HTTPError) -> Void) {
        self.body = body
    }

    /// Applies the closure.
    public func adapt(_ request: TransportRequest) async throws(HTTPError) -> TransportRequest {
        var adapted = request
        try body(&adapted)
        return adapted
    }
}

extension RequestAdapter where Self == ClosureAdapter {
    /// Sets each header unless the request already has it.
    public static func headers(_ headers: HTTPHeaders) -> ClosureAdapter {
        ClosureAdapter { request in
            for field in headers where !request.headers.contains(field.name) {
                request.headers.add(name: field.name, value: field.value)
            }
        }
    }

    /// Sends `Authorization: Bearer <token>`.
    public static func bearerToken(_ token: String) -> ClosureAdapter {
        ClosureAdapter { request in request.headers["Authorization"] = "Bearer \(token)" }
    }

    /// Appends query items to every URL.
    public static func query(_ items: [URLQueryItem]) -> ClosureAdapter {
        ClosureAdapter { request in
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: true) else { return }
            let added = items.map { item in
                FormEncoding.escape(item.name, spaceAsPlus: false)
                    + (item.value.map { "=" + FormEncoding.escape($0, spaceAsPlus: false) } ?? "")
            }
            components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + added)
                .joined(separator: "&")
            if let url = components.url { request.url = url }
        }
    }
}
