import Foundation

/// One attempt of a request, reported to the client's event hook for logs and metrics.
///
/// ```swift
/// var configuration = HTTPClient.Configuration()
/// configuration.onAttempt = { event in print(event) }
/// ```
public struct AttemptEvent: Sendable, CustomStringConvertible {
    /// The attempt number, from 1.
    public var attempt: Int
    /// The method.
    public var method: HTTPMethod
    /// The URL requested.
    public var url: URL
    /// The status code of the response, or the error.
    public var outcome: Result<Int, HTTPError>
    /// The wait before the next attempt, or `nil` when this was the last one.
    public var retryDelay: Duration?
    /// How long the attempt took.
    public var duration: Duration

    /// An event from its parts.
    public init(
        attempt: Int, method: HTTPMethod, url: URL, outcome: Result<Int, HTTPError>, retryDelay: Duration?,
        duration: Duration
    ) {
        self.attempt = attempt
        self.method = method
        self.url = url
        self.outcome = outcome
        self.retryDelay = retryDelay
        self.duration = duration
    }

    /// One line: method, URL, attempt, outcome and the retry decision.
    public var description: String {
        let result: String
        switch outcome {
        case .success(let status): result = "HTTP \(status)"
        case .failure(let error): result = error.description
        }
        let next = retryDelay.map { ", retrying in \($0)" } ?? ""
        return "\(method) \(url.absoluteString) attempt \(attempt): \(result)\(next)"
    }
}
