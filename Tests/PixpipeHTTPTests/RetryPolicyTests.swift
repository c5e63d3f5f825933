import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

@Suite("Retry policy without sleeping")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
    let url = URL(string: "http://example.com/x")!

    @Test(arguments: [(1, 0.1), (2, 0.2), (3, 0.4), (4, 0.8), (5, 1.0), (40, 1.0)])
    func backoffCeilingDoublesUpToTheMaximum(attempt: Int, seconds: Double) {
        let ceiling = policy.backoffCeiling(afterAttempt: attempt)
        #expect(
            abs(Double(ceiling.components.seconds) + Double(ceiling.components.attoseconds) / 1e18 - seconds) < 1e-9)
    }

    @Test func fullJitterSpansZeroToTheCeiling() {
        var generator = SeededGenerator(seed: 42)
        let delays = (0..<1000).map { _ in policy.delay(afterAttempt: 3, using: &generator) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .milliseconds(400) })
        #expect(delays.min()! < .milliseconds(20))
        #expect(delays.max()! > .milliseconds(380))
        var again = SeededGenerator(seed: 42)
        #expect(policy.delay(afterAttempt: 3, using: &again) == delays[0])
    }

    @Test func retryAfterWinsButIsCappedByTheMaximumDelay() {
        var generator = SeededGenerator(seed: 1)
        #expect(policy.delay(afterAttempt: 1, retryAfter: .milliseconds(300), using: &generator) == .milliseconds(300))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(120), using: &generator) == .seconds(1))
    }

    @Test func retryAfterParsesSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_445_412_470)  // Wed, 21 Oct 2015 07:27:50 GMT
        #expect(RetryAfter.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(from: "Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.delay(from: "Wednesday, 21-Oct-15 07:28:00 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.delay(from: "Tue, 20 Oct 2015 07:28:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay(from: "soon", now: now) == nil)
        #expect(RetryAfter.delay(from: "-3", now: now) == nil)
    }

    @Test func onlyIdempotentMethodsAndRetryableFailuresAreRetried() {
        let unavailable = HTTPError.httpStatus(code: 503, url: url, bodyPrefix: "")
        #expect(policy.shouldRetry(unavailable, method: .get, attempt: 1))
        #expect(policy.shouldRetry(.timedOut(after: .seconds(1), url: url), method: .put, attempt: 4))
        #expect(
            policy.shouldRetry(.transport(code: -1004, description: "refused", url: url), method: .delete, attempt: 1))
        #expect(!policy.shouldRetry(unavailable, method: .post, attempt: 1))
        #expect(!policy.shouldRetry(unavailable, method: .get, attempt: 5))
        #expect(!policy.shouldRetry(.httpStatus(code: 404, url: url, bodyPrefix: ""), method: .get, attempt: 1))
        #expect(!policy.shouldRetry(.cancelled(url: url), method: .get, attempt: 1))
        #expect(!policy.shouldRetry(.bodyTooLarge(limit: 1, url: url), method: .get, attempt: 1))
    }

    /// Concurrent retries draw their waits at once; under `scripts/test --sanitize thread` this is the
    /// test that shows whether those draws share memory (they did, through an empty generator's address).
    @Test func manyTasksDrawWaitsAtOnce() async {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(4))
        let inRange = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<2_000).allSatisfy { attempt in
                        let wait = policy.delay(afterAttempt: attempt % 3 + 1)
                        return wait >= .zero && wait <= .seconds(4)
                    }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(inRange)
    }
}
