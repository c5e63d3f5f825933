import Foundation

/// The built-in transports, for choosing one by name: `HTTPClient(transport: .curl)`.
public enum HTTPTransportKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``CurlTransport``: libcurl driven directly; the default on Linux.
    case curl
    /// ``URLSessionTransport``: Foundation's URLSession; the portable fallback and the default elsewhere.
    case urlSession

    /// The transport a client uses when none is named: curl on Linux, URLSession elsewhere.
    public static var platformDefault: HTTPTransportKind {
        #if os(Linux)
            .curl
        #else
            .urlSession
        #endif
    }

    /// A new transport of this kind opening at most `maxConnectionsPerHost` connections to one host.
    ///
    /// `trust` reaches the curl transport only: FoundationNetworking on Linux offers no way to name
    /// certificate authorities, so a URLSession transport always trusts the system's.
    package func makeTransport(maxConnectionsPerHost: Int, trust: TrustedCertificates? = nil) -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport(maxConnectionsPerHost: maxConnectionsPerHost, trust: trust)
        case .urlSession: URLSessionTransport(maxConnectionsPerHost: maxConnectionsPerHost)
        }
    }

    /// Whether transports of this kind can trust certificate authorities other than the system's.
    public var supportsTrustedCertificates: Bool { self == .curl }

    /// The name used on the command line (`curl`, `urlsession`).
    public var description: String { self == .curl ? "curl" : "urlsession" }
}

extension HTTPClient {
    /// A client using the built-in transport `kind`, sized to the configuration's concurrency.
    public convenience init(configuration: Configuration = Configuration(), transport kind: HTTPTransportKind) {
        self.init(
            configuration: configuration,
            transport: kind.makeTransport(
                maxConnectionsPerHost: configuration.maxConcurrentRequests, trust: configuration.trustedCertificates))
    }
}
