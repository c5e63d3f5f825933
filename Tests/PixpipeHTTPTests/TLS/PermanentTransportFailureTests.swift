import Foundation
import Testing

@testable import PixpipeHTTP

/// Which transport failures the retry policy gives up on at once.
@Suite("Permanent transport failures")
struct PermanentTransportFailureTests {
    let url = URL(string: "https://example.com/a")!

    @Test(arguments: [
        60,  // CURLE_PEER_FAILED_VERIFICATION
        77,  // CURLE_SSL_CACERT_BADFILE
        58,  // CURLE_SSL_CERTPROBLEM
        -1202,  // URLError.serverCertificateUntrusted
        -1203,  // URLError.serverCertificateHasUnknownRoot
    ])
    func certificateFailuresAreNotRetried(code: Int) {
        let error = HTTPError.transport(code: code, description: "certificate", url: url)
        #expect(error.isPermanentTransportFailure)
        #expect(!RetryPolicy(maxAttempts: 5).shouldRetry(error, method: .get, attempt: 1))
    }

    @Test(arguments: [
        7,  // CURLE_COULDNT_CONNECT
        35,  // CURLE_SSL_CONNECT_ERROR: may be a reset during the handshake
        56,  // CURLE_RECV_ERROR
        -1004,  // URLError.cannotConnectToHost
        -1,  // URLError.unknown, which FoundationNetworking uses for most libcurl failures
    ])
    func passingFailuresAreStillRetried(code: Int) {
        let error = HTTPError.transport(code: code, description: "failed", url: url)
        #expect(!error.isPermanentTransportFailure)
        #expect(RetryPolicy(maxAttempts: 5).shouldRetry(error, method: .get, attempt: 1))
    }

    @Test func onlyTransportErrorsArePermanentTransportFailures() {
        #expect(!HTTPError.timedOut(after: .seconds(1), url: url).isPermanentTransportFailure)
        #expect(!HTTPError.httpStatus(code: 503, url: url, bodyPrefix: "").isPermanentTransportFailure)
    }
}
