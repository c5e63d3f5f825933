import Foundation

/// Which certificate authorities a TLS connection trusts in place of the system's: a PEM bundle, a folder of
/// hashed certificates (`openssl rehash`), or both, as curl's `--cacert` and `--capath`.
///
/// ```swift
/// let transport = CurlTransport(trust: TrustedCertificates(caFile: "/etc/company/ca.pem"))
/// ```
public struct TrustedCertificates: Sendable, Hashable {
    /// A PEM file of certificate authorities (libcurl's `CURLOPT_CAINFO`).
    public var caFile: String?
    /// A folder of certificate authorities named by their hash (libcurl's `CURLOPT_CAPATH`).
    public var caDirectory: String?

    /// Trust in the given bundle and folder; `nil` for both keeps the system's.
    public init(caFile: String? = nil, caDirectory: String? = nil) {
        self.caFile = caFile
        self.caDirectory = caDirectory
    }

    /// The variables read by ``fromEnvironment(_:)``, in the order a bundle is looked for.
    public static let bundleVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"]
    /// The variable naming a folder of certificates.
    public static let directoryVariable = "SSL_CERT_DIR"

    /// What the environment names, as curl users set it: the bundle from `CURL_CA_BUNDLE`, else
    /// `SSL_CERT_FILE`, and the folder from `SSL_CERT_DIR`; `nil` when none is set (empty values count as unset).
    public static func fromEnvironment(_ environment: [String: String]) -> TrustedCertificates? {
        fromEnvironment { environment[$0] }
    }

    /// What this process's environment names (see ``fromEnvironment(_:)``).
    ///
    /// Reads the three variables alone: building `ProcessInfo`'s dictionary of the whole environment cost
    /// every transport about 300 KB more memory at the peak.
    public static func fromEnvironment() -> TrustedCertificates? {
        fromEnvironment { name in getenv(name).map { String(cString: $0) } }
    }

    private static func fromEnvironment(_ value: (String) -> String?) -> TrustedCertificates? {
        let file = bundleVariables.lazy.compactMap(value).first { !$0.isEmpty }
        let directory = value(directoryVariable).flatMap { $0.isEmpty ? nil : $0 }
        guard file != nil || directory != nil else { return nil }
        return TrustedCertificates(caFile: file, caDirectory: directory)
    }
}
