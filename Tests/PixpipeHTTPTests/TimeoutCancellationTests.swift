import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    @Suite("Timeouts and cancellation against a real socket")
    struct TimeoutCancellationTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
        }

        @Test func subSecondTimeoutFiresWellUnderASecond() async throws {
            server.route("/slow", .delayHeaders(seconds: 5, then: .text("late")))
            var request = Request<String>(path: "/slow")
            request.timeout = .milliseconds(300)
            let started = ContinuousClock.now
            await #expect(throws: HTTPError.timedOut(after: .milliseconds(300), url: server.url("/slow"))) {
                try await client.send(request)
            }
            #expect(ContinuousClock.now - started < .milliseconds(900))
        }

        @Test func timeoutCoversTheWholeBodyNotOnlyIdleGaps() async throws {
            // Bytes keep arriving every 50 ms, so an idle timeout would never fire; the total deadline must.
            server.route("/trickle", .trickle(body: [UInt8](repeating: 1, count: 100), chunkSize: 1, interval: 0.05))
            var request = Request<Data>(path: "/trickle")
            request.timeout = .milliseconds(500)
            let started = ContinuousClock.now
            await #expect(throws: HTTPError.timedOut(after: .milliseconds(500), url: server.url("/trickle"))) {
                try await client.send(request)
            }
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(await server.waitForAbortedResponse("/trickle", timeout: 5))
        }

        @Test func queueingInTheClientDoesNotCountAgainstTheTimeout() async throws {
            let serial = HTTPClient(
                configuration: .init(
                    baseURL: server.baseURL, maxConcurrentRequests: 1, timeout: .milliseconds(800), retryPolicy: .none))
            server.route("/wait", .delayHeaders(seconds: 0.3, then: .text("ok")))
            async let first = serial.send(Request<String>(path: "/wait"))
            async let second = serial.send(Request<String>(path: "/wait"))
            async let third = serial.send(Request<String>(path: "/wait"))
            // The third waits ~0.6 s in the queue, more than its timeout, yet succeeds.
            #expect(try await [first, second, third] == ["ok", "ok", "ok"])
        }

        @Test func taskCancellationIsCancelledAndStopsTheTransfer() async throws {
            server.route(
                "/stream", .trickle(body: [UInt8](repeating: 1, count: 100_000), chunkSize: 100, interval: 0.05))
            let task = Task { () async throws(HTTPError) -> Data in
                try await client.send(Request<Data>(path: "/stream"))
            }
            #expect(await server.waitForRequests("/stream", count: 1, timeout: 5))
            task.cancel()
            let result = await task.result
            #expect(throws: HTTPError.cancelled(url: server.url("/stream"))) { try result.get() }
            #expect(await server.waitForAbortedResponse("/stream", timeout: 5))
        }

        @Test func cancellationWhileWaitingForHeadersIsCancelled() async throws {
            server.route("/slow", .delayHeaders(seconds: 5, then: .text("late")))
            let fetch = client.task(for: Request<String>(path: "/slow"))
            #expect(await server.waitForRequests("/slow", count: 1, timeout: 5))
            let started = ContinuousClock.now
            fetch.cancel()
            await #expect(throws: HTTPError.cancelled(url: server.url("/slow"))) { try await fetch.value }
            #expect(ContinuousClock.now - started < .seconds(1))
        }

        @Test func cancellationBeforeStartingIsCancelled() async throws {
            server.route("/x", .text("x"))
            let task = Task { () async throws(HTTPError) -> String in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(Request<String>(path: "/x"))
            }
            await #expect(throws: HTTPError.cancelled(url: server.url("/x"))) { try await task.value }
        }
    }
}
