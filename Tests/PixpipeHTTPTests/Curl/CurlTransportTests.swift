import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// What only the curl transport promises, beyond the shared transport contract.
@Suite("Curl transport")
struct CurlTransportTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    @Test func isTheDefaultOnLinux() {
        #if os(Linux)
            #expect(HTTPTransportKind.platformDefault == .curl)
            #expect(HTTPClient().transport is CurlTransport)
        #endif
        #expect(HTTPClient(transport: .urlSession).transport is URLSessionTransport)
    }

    @Test func idleTimeoutIsExactToTensOfMilliseconds() async throws {
        server.route("/pause", .trickle(body: [UInt8](repeating: 4, count: 200), chunkSize: 100, interval: 5))
        let transport = CurlTransport(idleTimeout: .milliseconds(150))
        let request = TransportRequest(
            url: server.url("/pause"), method: .get, headers: [:], body: nil, maxBodyBytes: 1000,
            redirectPolicy: RedirectPolicy(), timeout: .seconds(10))
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: HTTPError.timedOut(after: .milliseconds(150), url: server.url("/pause"))) {
            try await transport.perform(request) { _ in }
        }
        let elapsed = clock.now - started
        // The wall clock only proves sub-second behaviour (URLSession on Linux rounds to whole seconds):
        // it also counts task scheduling, which a loaded machine delays. The engine tests check the
        // precision itself on libcurl's side. Run alone, the overshoot is a few milliseconds.
        #expect(elapsed >= .milliseconds(150) && elapsed < .milliseconds(650))
    }

    @Test func cancellingManyRequestsLeavesNoTransferBehind() async throws {
        server.route("/wait", .delayHeaders(seconds: 30, then: .text("late")))
        let transport = CurlTransport(maxConnectionsPerHost: 8)
        let request = TransportRequest(
            url: server.url("/wait"), method: .get, headers: [:], body: nil, maxBodyBytes: 1000,
            redirectPolicy: RedirectPolicy(), timeout: .seconds(60))
        let cancelled = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do throws(HTTPError) {
                        _ = try await transport.perform(request) { _ in }
                        return false
                    } catch { return error.isCancellation }
                }
            }
            _ = await server.waitForRequests("/wait", count: 8, timeout: 5)
            group.cancelAll()
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(cancelled == 200)
        let counters = transport.engineCounters.snapshot
        #expect(counters.activeTransfers == 0)
        #expect(counters.threadRunning)
    }
}
