import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// URLSession transports hand their sessions on instead of tearing them down, one live transport per session.
///
/// Each test uses a connection cap no other test uses, so the shared pool's sessions for it are its own.
@Suite("URLSession session reuse")
struct URLSessionPoolTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func request(_ path: String, maxBodyBytes: Int = 1 << 20) -> TransportRequest {
        TransportRequest(
            url: server.url(path), method: .get, headers: [:], body: nil, maxBodyBytes: maxBodyBytes,
            redirectPolicy: RedirectPolicy(), timeout: .seconds(5))
    }

    @Test func theNextTransportWithTheSameCapReusesTheSessionAndItsConnection() async throws {
        server.route("/hello", .text("hello"))
        for _ in 0..<3 {
            let response = try await URLSessionTransport(maxConnectionsPerHost: 7).perform(request("/hello")) { _ in }
            #expect(response.body == Data("hello".utf8))
        }
        #expect(server.requestCount("/hello") == 3)
        #expect(server.connectionCount == 1)
    }

    @Test func liveTransportsNeverShareASessionsConnectionCap() async throws {
        server.route("/slow", .delayHeaders(seconds: 0.4, then: .text("slow")))
        let first = URLSessionTransport(maxConnectionsPerHost: 1)
        let second = URLSessionTransport(maxConnectionsPerHost: 1)
        let started = ContinuousClock.now
        async let one = first.perform(request("/slow")) { _ in }
        async let two = second.perform(request("/slow")) { _ in }
        let bodies = try await [one.body, two.body]
        // Sharing one session with a cap of one connection, the second request would wait for the first.
        #expect(bodies == [Data("slow".utf8), Data("slow".utf8)])
        #expect(ContinuousClock.now - started < .milliseconds(750))
        #expect(server.connectionCount == 2)
    }

    @Test func transportsDroppedRightAfterACancelledTransferLeaveABoundedPool() async throws {
        server.route("/big", .respond(body: [UInt8](repeating: 1, count: 10_000)))
        for _ in 0..<200 {
            await #expect(throws: HTTPError.bodyTooLarge(limit: 1000, url: server.url("/big"))) {
                try await URLSessionTransport(maxConnectionsPerHost: 11).perform(
                    request("/big", maxBodyBytes: 1000)
                ) { _ in }
            }
        }
        let idle = URLSessionPool.shared.idleCount(maxConnectionsPerHost: 11)
        #expect(idle >= 1 && idle <= URLSessionPool.maxIdlePerCap)
    }

    @Test func sessionsPastTheBoundAreLetGo() async throws {
        do {
            let many = (0..<(URLSessionPool.maxIdlePerCap * 2)).map { _ in
                URLSessionTransport(maxConnectionsPerHost: 13)
            }
            #expect(many.count == URLSessionPool.maxIdlePerCap * 2)
        }
        #expect(URLSessionPool.shared.idleCount(maxConnectionsPerHost: 13) == URLSessionPool.maxIdlePerCap)
    }
}
