import Foundation
import Testing

@testable import PixpipeHTTP

/// The decision the engine makes when a redirect response ends, fed header lines and libcurl's resolution
/// of the Location directly (no TLS server is needed to see an https page redirect to http).
@Suite("Curl redirect policy")
struct CurlRedirectPolicyTests {
    private let origin = URL(string: "https://images.example/photo")!

    private func active(
        allowsInsecure: Bool = false, maxRedirects: Int = 10, keepsHeaders: Bool = false, method: String = "GET"
    ) throws -> CurlActiveTransfer {
        var request = CurlTransferRequest(url: origin)
        request.allowsInsecureRedirects = allowsInsecure
        request.keepsHeadersAcrossOrigins = keepsHeaders
        request.maxRedirects = maxRedirects
        request.method = method
        request.headers = [
            CurlHeaderField(name: "Authorization", value: "Bearer secret"),
            CurlHeaderField(name: "Cookie", value: "session=1"), CurlHeaderField(name: "X-Api-Key", value: "k"),
            CurlHeaderField(name: "User-Agent", value: "pixpipe-test"),
        ]
        let easy = try #require(CurlEasyHandle())
        return CurlActiveTransfer(
            transfer: CurlTransfer(request: request, sink: CurlBodyCollector()), easy: easy, now: .now)
    }

    /// Feeds a redirect's header block; returns whether it is taken for a hop to follow.
    private func receiveRedirect(_ active: CurlActiveTransfer, status: Int = 302, location: String) -> Bool {
        let lines = ["HTTP/1.1 \(status) Moved\r\n", "Location: \(location)\r\n", "\r\n"]
        for line in lines { _ = Array(line.utf8).withUnsafeBytes { active.receiveHeaderLine($0) } }
        return active.isRedirectResponse
    }

    @Test func refusesAnHttpsToHttpDowngrade() throws {
        let active = try active()
        defer { active.easy.destroy() }
        #expect(receiveRedirect(active, location: "http://images.example/photo"))
        let hop = active.nextHop(redirectURL: "http://images.example/photo", now: .now)
        #expect(hop.failure == .insecureRedirect(from: origin, to: URL(string: "http://images.example/photo")!))
    }

    @Test func allowsTheDowngradeWhenThePolicySaysSo() throws {
        let active = try active(allowsInsecure: true)
        defer { active.easy.destroy() }
        #expect(receiveRedirect(active, location: "http://images.example/photo"))
        let hop = try active.nextHop(redirectURL: "http://images.example/photo", now: .now).get()
        #expect(hop.url.absoluteString == "http://images.example/photo")
        #expect(active.redirectCount == 1)
    }

    @Test func refusesRedirectsToOtherSchemes() throws {
        let active = try active()
        defer { active.easy.destroy() }
        let hop = active.nextHop(redirectURL: "ftp://images.example/photo", now: .now)
        #expect(hop.failure == .unsupportedRedirectScheme("ftp", url: URL(string: "ftp://images.example/photo")!))
    }

    @Test(arguments: [nil, "http://[", "/relative/only"])
    func aLocationLibcurlCouldNotResolveIsAnError(redirectURL: String?) throws {
        let active = try active()
        defer { active.easy.destroy() }
        guard case .invalidRedirect? = active.nextHop(redirectURL: redirectURL, now: .now).failure else {
            Issue.record("expected invalidRedirect")
            return
        }
    }

    @Test func aNotModifiedWithALocationIsAnAnswerNotAHop() throws {
        let active = try active()
        defer { active.easy.destroy() }
        #expect(!receiveRedirect(active, status: 304, location: "http://elsewhere.example/"))
    }

    @Test func theLimitCountsEveryHop() throws {
        let active = try active(maxRedirects: 0)
        defer { active.easy.destroy() }
        let hop = active.nextHop(redirectURL: "https://images.example/other", now: .now)
        #expect(hop.failure == .tooManyRedirects(limit: 0, url: origin))
    }

    @Test func anotherOriginGetsNoCredentialsOrCallerHeaders() throws {
        let active = try active()
        defer { active.easy.destroy() }
        let hop = try active.nextHop(redirectURL: "https://images.example:8443/photo", now: .now).get()
        #expect(hop.headers.map(\.name) == ["User-Agent"])
    }

    @Test func theSameOriginKeepsEveryHeader() throws {
        let active = try active()
        defer { active.easy.destroy() }
        let hop = try active.nextHop(redirectURL: "https://IMAGES.example:443/other", now: .now).get()
        #expect(hop.headers.map(\.name) == ["Authorization", "Cookie", "X-Api-Key", "User-Agent"])
    }

    @Test func theKeepOptionKeepsEveryHeader() throws {
        let active = try active(keepsHeaders: true)
        defer { active.easy.destroy() }
        let hop = try active.nextHop(redirectURL: "https://cdn.example/photo", now: .now).get()
        #expect(hop.headers.count == 4)
    }

    @Test func seeOtherTurnsAPostIntoAGet() throws {
        let active = try active(method: "POST")
        defer { active.easy.destroy() }
        #expect(receiveRedirect(active, status: 303, location: "/done"))
        let hop = try active.nextHop(redirectURL: "https://images.example/done", now: .now).get()
        #expect(hop.method == "GET")
        #expect(hop.body == nil)
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
