import Foundation
import PixpipeLocking

/// When and how long to wait before trying a failed request again.
///
/// Only idempotent methods are retried, and only after transport errors (not those that would repeat, such as
/// an untrusted certificate: ``HTTPError/isPermanentTransportFailure``), timeouts, or a retryable status
/// (408, 429, 500, 502, 503, 504 by default). The wait is exponential backoff with full jitter, or the
/// server's `Retry-After` when it sends one, never more than ``maxDelay``.
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(5))
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts in total, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The backoff ceiling of the first retry; it doubles with each further attempt.
    public var baseDelay: Duration
    /// The longest wait between attempts, `Retry-After` included.
    public var maxDelay: Duration
    /// Status codes that are worth another attempt.
    public var retryableStatusCodes: Set<Int>

    /// The status codes retried by default.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// A policy; the defaults try 3 times, starting from 200 ms, waiting at most 10 s.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryableStatusCodes = retryableStatusCodes
    }

    /// A policy that never retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether `error` from attempt number `attempt` of a `method` request deserves another attempt.
    package func shouldRetry(_ error: HTTPError, method: HTTPMethod, attempt: Int) -> Bool {
        guard method.isIdempotent, attempt < maxAttempts else { return false }
        switch error {
        case .transport: return !error.isPermanentTransportFailure
        case .timedOut: return true
        case .httpStatus(let code, _, _): return retryableStatusCodes.contains(code)
        default: return false
        }
    }

    /// The wait after attempt number `attempt` (1-based) failed.
    ///
    /// With `retryAfter` (from the server) the wait is that, capped at ``maxDelay``; otherwise it is drawn
    /// uniformly from zero to `min(maxDelay, baseDelay * 2^(attempt-1))` ("full jitter"), using `generator`
    /// so tests can make it deterministic.
    package func delay(
        afterAttempt attempt: Int, retryAfter: Duration? = nil, using generator: inout some RandomNumberGenerator
    ) -> Duration {
        if let retryAfter { return min(max(retryAfter, .zero), maxDelay) }
        let ceiling = backoffCeiling(afterAttempt: attempt)
        let seconds = ceiling.secondsValue
        guard seconds > 0 else { return .zero }
        return .seconds(Double.random(in: 0...seconds, using: &generator))
    }

    /// The wait after attempt `attempt` using the system random source.
    package func delay(afterAttempt attempt: Int, retryAfter: Duration? = nil) -> Duration {
        var generator = SystemRandomSource()
        return delay(afterAttempt: attempt, retryAfter: retryAfter, using: &generator)
    }

    /// The upper bound of the jittered wait after attempt `attempt`: `min(maxDelay, baseDelay * 2^(attempt-1))`.
    package func backoffCeiling(afterAttempt attempt: Int) -> Duration {
        let exponent = Double(max(0, min(attempt - 1, 62)))
        let seconds = baseDelay.secondsValue * pow(2, exponent)
        return seconds >= maxDelay.secondsValue ? maxDelay : .seconds(seconds)
    }
}

/// The system's random numbers, in a value with storage.
///
/// `SystemRandomNumberGenerator` has no stored properties, and an `inout` access to an empty value can
/// use one shared address for every thread: ThreadSanitizer then reports concurrent retries' draws as a
/// race on that address (it did, in CI). A byte of storage gives each caller's generator its own place.
private struct SystemRandomSource: RandomNumberGenerator {
    private var system = SystemRandomNumberGenerator()
    private var storage: UInt8 = 0

    mutating func next() -> UInt64 {
        system.next()
    }
}
