internal import CLibCurl
import Foundation

/// Transport failures that another attempt cannot fix, so ``RetryPolicy`` does not retry them.
extension FetchError {
    /// Whether this is a transport failure that repeats on every attempt: a certificate the client does not
    /// trust, an unreadable CA file, a URL or option the transport refuses.
    ///
    /// The codes are the transport's own: libcurl's `CURLcode` (positive) for the curl transport,
    /// `URLError` codes (negative) for URLSession, so the two sets never collide. A failed TLS handshake
    /// in general (`CURLE_SSL_CONNECT_ERROR`) stays retryable: a reset mid-handshake looks the same.
    package var isPermanentTransportFailure: Bool {
        guard case .transport(let code, _, _) = self else { return false }
        return Self.permanentCurlCodes.contains(code) || Self.permanentURLErrorCodes.contains(code)
    }

    private static let permanentCurlCodes: Set<Int> = Set(
        [
            CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
        ].map { Int($0.rawValue) })

    private static let permanentURLErrorCodes: Set<Int> = Set(
        [
            URLError.Code.badURL, .unsupportedURL, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired,
        ].map(\.rawValue))
}
