internal import CLibCurl
import Foundation
import Testing

@testable import PixpipeHTTP

/// The redirect checks the header callback makes, fed header lines directly (no TLS server is needed
/// to see an https page redirect to http).
@Suite("Curl redirect policy")
struct CurlRedirectPolicyTests {
    private let origin = URL(string: "https://images.example/photo")!

    private func active(allowsInsecure: Bool = false, maxRedirects: Int = 10) throws -> CurlActiveTransfer {
        var request = CurlTransferRequest(url: origin)
        request.allowsInsecureRedirects = allowsInsecure
        request.maxRedirects = maxRedirects
        let easy = try #require(CurlEasyHandle())
        return CurlActiveTransfer(
            transfer: CurlTransfer(request: request, sink: CurlBodyCollector()), easy: easy, now: .now)
    }

    /// Feeds a redirect's header block; returns whether the transfer may go on.
    private func redirect(_ active: CurlActiveTransfer, to location: String) -> Bool {
        ["HTTP/1.1 302 Found\r\n", "Location: \(location)\r\n", "\r\n"].allSatisfy { line in
            Array(line.utf8).withUnsafeBytes { active.receiveHeaderLine($0) }
        }
    }

    @Test func refusesAnHttpsToHttpDowngrade() throws {
        let active = try active()
        defer { active.easy.destroy() }
        #expect(!redirect(active, to: "http://images.example/photo"))
        let error = active.error(for: CURLE_WRITE_ERROR, message: "", now: .now)
        #expect(error == .insecureRedirect(from: origin, to: URL(string: "http://images.example/photo")!))
    }

    @Test func allowsTheDowngradeWhenThePolicySaysSo() throws {
        let active = try active(allowsInsecure: true)
        defer { active.easy.destroy() }
        #expect(redirect(active, to: "http://images.example/photo"))
        #expect(active.currentURL.absoluteString == "http://images.example/photo")
    }

    @Test func resolvesRelativeLocationsAgainstTheCurrentURL() throws {
        let active = try active()
        defer { active.easy.destroy() }
        #expect(redirect(active, to: "/other?x=1"))
        #expect(active.currentURL.absoluteString == "https://images.example/other?x=1")
        #expect(active.redirectCount == 1)
    }

    @Test func refusesRedirectsToOtherSchemes() throws {
        let active = try active()
        defer { active.easy.destroy() }
        #expect(!redirect(active, to: "ftp://images.example/photo"))
        let error = active.error(for: CURLE_WRITE_ERROR, message: "", now: .now)
        #expect(error == .unsupportedRedirectScheme("ftp", url: URL(string: "ftp://images.example/photo")!))
    }
}
