import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// HTTPS through the curl transport against a real nginx: verification, the CA file, HTTP/2 and its
/// multiplexing, redirects across schemes, and content decoding over TLS.
@Suite(
    "Curl transport over TLS",
    .enabled(if: NginxTLSServer.shouldRunTests, "nginx or openssl is missing (scripts/bootstrap installs them)"))
struct CurlTLSTests {
    let server: NginxTLSServer

    /// Text long and repetitive enough that nginx compresses it well.
    static let pageText = String(repeating: "Pixpipe fetches, decodes and thumbnails images.\n", count: 400)

    init() throws {
        server = try NginxTLSServer(files: ["page.txt": Data(Self.pageText.utf8)])
    }

    private func request(_ url: URL, allowsInsecureRedirects: Bool = false) -> TransportRequest {
        TransportRequest(
            url: url, method: .get, headers: [:], body: nil, maxBodyBytes: 1 << 20,
            redirectPolicy: RedirectPolicy(allowsInsecureRedirects: allowsInsecureRedirects), timeout: .seconds(10))
    }

    @Test func verifiesCertificatesByDefault() async throws {
        let transport = CurlTransport()
        let url = server.url("/hello.txt")
        let error = await #expect(throws: HTTPError.self) { try await transport.perform(request(url)) { _ in } }
        guard case .transport(let code, let description, let failedURL)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == 60, "CURLE_PEER_FAILED_VERIFICATION")
        #expect(description.localizedCaseInsensitiveContains("certificate"))
        #expect(failedURL == url)
    }

    @Test func anUntrustedCertificateIsNotRetried() async throws {
        let transport = CurlTransport()
        let client = HTTPClient(
            configuration: HTTPClient.Configuration(retryPolicy: RetryPolicy()), transport: transport)
        let url = server.url("/hello.txt")
        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<String>(url: url)) }
        #expect(error?.isPermanentTransportFailure == true)
        // One connection: the certificate would be refused again on every attempt.
        #expect(transport.engineCounters.snapshot.socketsOpenedInTotal == 1)
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func trustsTheNamedCertificateAuthority(host: String) async throws {
        let transport = CurlTransport(caFile: server.caFile)
        let url = try #require(URL(string: "https://\(host):\(server.httpsPort)/hello.txt"))
        let response = try await transport.perform(request(url)) { _ in }
        #expect(response.metadata.statusCode == 200)
        #expect(response.body == Data(NginxTLSServer.helloText.utf8))
        #expect(response.metadata.httpVersion == "HTTP/2")
    }

    @Test func anUnreadableCAFileIsATypedError() async throws {
        let transport = CurlTransport(caFile: "/nonexistent/pixpipe-ca.pem")
        let error = await #expect(throws: HTTPError.self) {
            try await transport.perform(request(server.url("/hello.txt"))) { _ in }
        }
        guard case .transport(let code, _, _)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == 77, "CURLE_SSL_CACERT_BADFILE")
    }

    @Test func plainHTTPStaysOnHTTP1() async throws {
        let response = try await CurlTransport().perform(request(server.plainURL("/hello.txt"))) { _ in }
        #expect(response.body == Data(NginxTLSServer.helloText.utf8))
        #expect(response.metadata.httpVersion == "HTTP/1.1")
    }

    @Test func concurrentRequestsShareOneHTTP2Connection() async throws {
        let transport = CurlTransport(maxConnectionsPerHost: 6, caFile: server.caFile)
        let batch = UUID().uuidString
        let requestCount = 50
        let versions = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<requestCount {
                let url = server.url("/page.txt?batch=\(batch)&n=\(index)")
                group.addTask {
                    let response = try await transport.perform(request(url)) { _ in }
                    #expect(response.body == Data(Self.pageText.utf8))
                    return response.metadata.httpVersion
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(versions == Array(repeating: "HTTP/2", count: requestCount))
        #expect(transport.engineCounters.snapshot.socketsOpenedInTotal == 1)
        let served = await server.waitForAccessLog(count: requestCount) { $0.uri.contains(batch) }
        #expect(served.count == requestCount)
        #expect(Set(served.map(\.connection)).count == 1)
        #expect(served.allSatisfy { $0.httpProtocol == "HTTP/2.0" })
    }

    @Test func refusesARedirectFromHTTPSToHTTP() async throws {
        let transport = CurlTransport(caFile: server.caFile)
        await #expect(
            throws: HTTPError.insecureRedirect(from: server.url("/downgrade"), to: server.plainURL("/hello.txt"))
        ) {
            try await transport.perform(request(server.url("/downgrade"))) { _ in }
        }
        // Nothing reached the plain server: the hop was refused before it was made.
        let logged = await server.waitForAccessLog(count: 1) { $0.uri == "/downgrade" }
        #expect(logged.count == 1)
        #expect(server.accessLog().filter { $0.port == server.httpPort }.isEmpty)
    }

    /// A Location with a vertical tab, form feed or carriage return before an http URL: libcurl strips the
    /// byte, so the downgrade is checked on the URL libcurl would fetch, and refused.
    @Test(arguments: NginxTLSServer.hostileRedirectPaths)
    func refusesADowngradeHiddenBehindWhitespace(path: String) async throws {
        let transport = CurlTransport(caFile: server.caFile)
        let url = server.http1URL(path)
        await #expect(throws: HTTPError.insecureRedirect(from: url, to: server.plainURL("/hello.txt"))) {
            try await transport.perform(request(url)) { _ in }
        }
        let logged = await server.waitForAccessLog(count: 1) { $0.uri == path }
        #expect(logged.count == 1)
        #expect(server.accessLog().filter { $0.port == server.httpPort }.isEmpty)
    }

    @Test func followsADowngradeOnlyWhenThePolicyAllowsIt() async throws {
        let transport = CurlTransport(caFile: server.caFile)
        let response = try await transport.perform(
            request(server.url("/downgrade"), allowsInsecureRedirects: true)
        ) { _ in }
        #expect(response.metadata.url == server.plainURL("/hello.txt"))
        #expect(response.metadata.httpVersion == "HTTP/1.1")
        #expect(response.body == Data(NginxTLSServer.helloText.utf8))
    }

    @Test func followsARedirectWithinHTTPS() async throws {
        let transport = CurlTransport(caFile: server.caFile)
        let response = try await transport.perform(request(server.url("/hop"))) { _ in }
        #expect(response.metadata.url == server.url("/hello.txt"))
        #expect(response.body == Data(NginxTLSServer.helloText.utf8))
    }

    @Test func decodesGzipOverTLS() async throws {
        let transport = CurlTransport(caFile: server.caFile)
        let response = try await transport.perform(request(server.url("/page.txt"))) { _ in }
        #expect(response.metadata.headers["Content-Encoding"] == "gzip")
        #expect(response.body == Data(Self.pageText.utf8))
    }
}
