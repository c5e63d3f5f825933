import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    @Suite("Retries against a real socket")
    struct RetryTests {
        let server: TestHTTPServer
        let events = Recorder<AttemptEvent>()

        init() throws {
            server = try TestHTTPServer()
        }

        func client(maxAttempts: Int, maxDelay: Duration = .milliseconds(200)) -> HTTPClient {
            let events = self.events
            return HTTPClient(
                configuration: .init(
                    baseURL: server.baseURL, timeout: .seconds(5),
                    retryPolicy: RetryPolicy(
                        maxAttempts: maxAttempts, baseDelay: .milliseconds(10), maxDelay: maxDelay),
                    onAttempt: { event in events.append(event) }))
        }

        @Test func failuresThenSuccessTakeExactlyThreeAttempts() async throws {
            server.route("/flaky", .failFirst(2, status: 503, then: .text("ok")))
            let text = try await client(maxAttempts: 5).send(Request<String>(path: "/flaky"))
            #expect(text == "ok")
            #expect(server.requestCount("/flaky") == 3)
            let recorded = events.all
            #expect(recorded.map(\.attempt) == [1, 2, 3])
            #expect(recorded.map { try? $0.outcome.get() } == [503, 503, 200])
            #expect(recorded.map { $0.retryDelay != nil } == [true, true, false])
        }

        @Test(arguments: [408, 429, 500, 502, 503, 504])
        func retryableStatusesAreRetried(status: Int) async throws {
            server.route("/flaky", .failFirst(1, status: status, then: .text("ok")))
            #expect(try await client(maxAttempts: 2).send(Request<String>(path: "/flaky")) == "ok")
            #expect(server.requestCount("/flaky") == 2)
        }

        @Test func attemptBudgetIsRespected() async throws {
            server.route("/down", .failFirst(10, status: 503, then: .text("ok")))
            await #expect(throws: HTTPError.httpStatus(code: 503, url: server.url("/down"), bodyPrefix: "")) {
                try await client(maxAttempts: 3).send(Request<String>(path: "/down"))
            }
            #expect(server.requestCount("/down") == 3)
        }

        @Test func postIsNeverRetried() async throws {
            server.route("/submit", .failFirst(1, status: 503, then: .text("ok")))
            let request = Request<String>(path: "/submit", method: .post, body: .text("payload"))
            await #expect(throws: HTTPError.httpStatus(code: 503, url: server.url("/submit"), bodyPrefix: "")) {
                try await client(maxAttempts: 5).send(request)
            }
            #expect(server.requestCount("/submit") == 1)
            #expect(server.requests("/submit").first?.body == Array("payload".utf8))
        }

        @Test func notFoundIsNotRetried() async throws {
            server.route("/gone", .text("gone", status: 404))
            await #expect(throws: HTTPError.self) {
                try await client(maxAttempts: 5).send(Request<String>(path: "/gone"))
            }
            #expect(server.requestCount("/gone") == 1)
        }

        @Test func connectionResetIsRetriedAsATransportError() async throws {
            server.route("/reset", .reset)
            let error = await #expect(throws: HTTPError.self) {
                try await client(maxAttempts: 2).send(Request<String>(path: "/reset"))
            }
            #expect(error.map { if case .transport = $0 { true } else { false } } == true)
            #expect(server.requestCount("/reset") == 2)
        }

        @Test func retryAfterSecondsIsHonouredAndCappedByMaxDelay() async throws {
            let arrivals = Recorder<Int>()
            server.route(
                "/busy",
                .handler { _ in arrivals.append(0) == 1 ? .retryAfter(status: 429, value: "120") : .text("ok") })
            let started = ContinuousClock.now
            #expect(
                try await client(maxAttempts: 2, maxDelay: .milliseconds(300)).send(Request<String>(path: "/busy"))
                    == "ok")
            // Retry-After says 120 s; the cap of 300 ms wins, and there is no jitter below it.
            #expect(events.all.first?.retryDelay == .milliseconds(300))
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(ContinuousClock.now - started < .seconds(5))
        }

        @Test func retryAfterHTTPDateIsHonoured() async throws {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            let past = formatter.string(from: Date(timeIntervalSinceNow: -60))
            server.route("/dated", .handler { _ in .retryAfter(status: 503, value: past) })
            _ = try? await client(maxAttempts: 2, maxDelay: .seconds(3)).send(Request<String>(path: "/dated"))
            // A date in the past means "now": zero wait rather than a jittered backoff.
            #expect(events.all.first?.retryDelay == .zero)
            #expect(server.requestCount("/dated") == 2)
        }
    }
}
