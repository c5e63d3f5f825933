import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// The URLSession transport against the same nginx: it cannot be given a CA file, but an untrusted
/// certificate must still end in a typed error, not a crash or a success.
@Suite(
    "URLSession transport over TLS",
    .enabled(if: NginxTLSServer.shouldRunTests, "nginx or openssl is missing (scripts/bootstrap installs them)"))
struct URLSessionTLSTests {
    let server: NginxTLSServer

    init() throws {
        server = try NginxTLSServer()
    }

    @Test func refusesAnUntrustedCertificateWithATypedError() async throws {
        let url = server.url("/hello.txt")
        let request = TransportRequest(
            url: url, method: .get, headers: [:], body: nil, maxBodyBytes: 1 << 20, redirectPolicy: RedirectPolicy(),
            timeout: .seconds(10))
        let error = await #expect(throws: HTTPError.self) {
            try await URLSessionTransport().perform(request) { _ in }
        }
        guard case .transport(let code, let description, let failedURL)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        // FoundationNetworking reports libcurl's message under NSURLErrorUnknown (-1) on Linux.
        #expect(code != 0)
        #expect(description.localizedCaseInsensitiveContains("certificate"))
        #expect(failedURL == url)
    }
}
