import Foundation
import PixpipeHTTP
import Testing

/// A generator that always returns the same word, so `Double.random(in:using:)` is predictable.
struct FixedGenerator: RandomNumberGenerator {
    var word: UInt64
    mutating func next() -> UInt64 { word }
}

@Suite("Retry policy without sleeping")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
    let url = URL(string: "http://example.com/x")!

    @Test(arguments: [(1, 0.1), (2, 0.2), (3, 0.4), (4, 0.8), (5, 1.0), (40, 1.0)])
    func backoffCeilingDoublesUpToTheMaximum(attempt: Int, seconds: Double) {
        let ceiling = policy.backoffCeiling(afterAttempt: attempt)
        #expect(abs(Double(ceiling.components.seconds) + Double(ceiling.components.attoseconds) / 1e18 - seconds) < 1e-9)
    }

    @Test func fullJitterSpansZeroToTheCeiling() {
        var low = FixedGenerator(word: 0)
        var high = FixedGenerator(word: .max)
        #expect(policy.delay(afterAttempt: 3, using: &low) == .zero)
        let top = policy.delay(afterAttempt: 3, using: &high)
        #expect(top > .milliseconds(399) && top <= .milliseconds(400))
    }

    @Test func retryAfterWinsButIsCappedByTheMaximumDelay() {
        var generator = FixedGenerator(word: 0)
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
        let unavailable = FetchError.httpStatus(code: 503, url: url, bodyPrefix: "")
        #expect(policy.shouldRetry(unavailable, method: .get, attempt: 1))
        #expect(policy.shouldRetry(.timedOut(after: .seconds(1), url: url), method: .put, attempt: 4))
        #expect(policy.shouldRetry(.transport(code: -1004, description: "refused", url: url), method: .delete, attempt: 1))
        #expect(!policy.shouldRetry(unavailable, method: .post, attempt: 1))
        #expect(!policy.shouldRetry(unavailable, method: .get, attempt: 5))
        #expect(!policy.shouldRetry(.httpStatus(code: 404, url: url, bodyPrefix: ""), method: .get, attempt: 1))
        #expect(!policy.shouldRetry(.cancelled(url: url), method: .get, attempt: 1))
        #expect(!policy.shouldRetry(.bodyTooLarge(limit: 1, url: url), method: .get, attempt: 1))
    }
}
