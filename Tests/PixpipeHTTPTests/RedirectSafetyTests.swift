import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// What a redirect may do, on both transports, against real servers on 127.0.0.1: hops whose Location only
/// libcurl can read still count, a 304 is never a hop, and nothing the caller sent reaches another origin.
@Suite("Redirect safety")
struct RedirectSafetyTests {
    let server: TestHTTPServer
    /// Another port on 127.0.0.1: another origin.
    let other: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
        other = try TestHTTPServer()
    }

    static let callerHeaders: HTTPHeaders = [
        "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic eA==",
        "X-Custom": "mine", "User-Agent": "pixpipe-test",
    ]

    private func request(
        _ url: URL, maxRedirects: Int = 10, keepsHeaders: Bool = false
    ) -> TransportRequest {
        TransportRequest(
            url: url, method: .get, headers: Self.callerHeaders, body: nil, maxBodyBytes: 1 << 20,
            redirectPolicy: RedirectPolicy(maxRedirects: maxRedirects, keepsHeadersAcrossOrigins: keepsHeaders),
            timeout: .seconds(10))
    }

    private func perform(_ kind: HTTPTransportKind, _ request: TransportRequest) async throws(HTTPError)
        -> TransportResponse
    {
        try await kind.makeTransport(maxConnectionsPerHost: 4).perform(request) { _ in }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func anotherOriginGetsNoCredentialsNorCallerHeaders(kind: HTTPTransportKind) async throws {
        server.route("/start", .redirect(to: other.url("/land").absoluteString))
        other.route("/land", .text("landed"))
        let response = try await perform(kind, request(server.url("/start")))
        #expect(response.body == Data("landed".utf8))
        let landed = try #require(other.requests("/land").first)
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Custom"] {
            #expect(landed.header(name) == nil, "\(name) went to another port")
        }
        #expect(landed.header("User-Agent") == "pixpipe-test")
        #expect(server.requests("/start").first?.header("Authorization") == "Bearer secret")
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func theSameOriginKeepsThem(kind: HTTPTransportKind) async throws {
        server.route("/start", .redirect(to: "/land"))
        server.route("/land", .text("landed"))
        _ = try await perform(kind, request(server.url("/start")))
        let landed = try #require(server.requests("/land").first)
        for (name, value) in Self.callerHeaders { #expect(landed.header(name) == value, "\(name)") }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func theKeepOptionSendsThemToAnotherOrigin(kind: HTTPTransportKind) async throws {
        server.route("/start", .redirect(to: other.url("/land").absoluteString))
        other.route("/land", .text("landed"))
        _ = try await perform(kind, request(server.url("/start"), keepsHeaders: true))
        let landed = try #require(other.requests("/land").first)
        for (name, value) in Self.callerHeaders { #expect(landed.header(name) == value, "\(name)") }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func aNotModifiedWithALocationIsNotFollowed(kind: HTTPTransportKind) async throws {
        server.route(
            "/cached", .respond(status: 304, headers: ["Location": other.url("/land").absoluteString], body: []))
        other.route("/land", .text("landed"))
        let response = try await perform(kind, request(server.url("/cached")))
        #expect(response.metadata.statusCode == 304)
        #expect(other.requestCount("/land") == 0)
    }

    /// A vertical tab, form feed or carriage return before the URL: libcurl strips it and would follow,
    /// Foundation's parser rejects it. With no redirect allowed, nothing is fetched either way.
    @Test(arguments: HTTPTransportKind.allCases, ["\u{0B}", "\u{0C}", "\r"])
    func noRedirectAllowedFollowsNoHopWhateverItsLocation(kind: HTTPTransportKind, prefix: String) async throws {
        let target = other.url("/land").absoluteString
        server.route("/start", .respond(status: 302, headers: ["Location": prefix + target], body: []))
        other.route("/land", .text("landed"))
        switch kind {
        case .curl:
            await #expect(throws: HTTPError.tooManyRedirects(limit: 0, url: server.url("/start"))) {
                try await perform(kind, request(server.url("/start"), maxRedirects: 0))
            }
        case .urlSession:
            // FoundationNetworking cannot read the Location and ends the task without a response.
            await #expect(throws: HTTPError.self) {
                try await perform(kind, request(server.url("/start"), maxRedirects: 0))
            }
        }
        #expect(other.requestCount("/land") == 0)
    }

    /// The same hops are counted when followed: curl goes where libcurl reads the Location, after the check.
    @Test(arguments: ["\u{0B}", "\u{0C}", "\r"])
    func curlCountsAndChecksTheHopLibcurlReads(prefix: String) async throws {
        server.route(
            "/start", .respond(status: 302, headers: ["Location": prefix + other.url("/land").absoluteString], body: [])
        )
        other.route("/land", .text("landed"))
        let response = try await perform(.curl, request(server.url("/start"), maxRedirects: 1))
        #expect(response.metadata.url == other.url("/land"))
        #expect(other.requests("/land").first?.header("Authorization") == nil)
    }

    /// Following a hop itself costs curl no new connection: the redirect's body is read and dropped, so the
    /// connection goes back to the cache and the next hop to the same server takes it.
    @Test func curlFollowsASameServerHopOnTheSameConnection() async throws {
        server.route("/start", .redirect(to: "/land"))
        server.route("/land", .text("landed"))
        let transport = CurlTransport()
        let response = try await transport.perform(request(server.url("/start"))) { _ in }
        #expect(response.body == Data("landed".utf8))
        #expect(response.metadata.url == server.url("/land"))
        #expect(transport.engineCounters.snapshot.socketsOpenedInTotal == 1)
    }

    @Test func curlRefusesALocationItCannotResolve() async throws {
        server.route("/start", .respond(status: 302, headers: ["Location": "http://["], body: []))
        await #expect(throws: HTTPError.invalidURL("http://[")) {
            try await perform(.curl, request(server.url("/start")))
        }
    }
}
