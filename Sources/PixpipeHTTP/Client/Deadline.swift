import Foundation

/// Runs an operation against a deadline that the client enforces itself.
///
/// URLSession on Linux only knows whole-second idle timeouts; racing the transfer against a sleep gives
/// sub-second and total (headers plus body) deadlines. The loser is cancelled, and the race returns only
/// once it has stopped, so a timed-out transfer never keeps running in the background.
enum Deadline {
    /// The operation's result, or ``FetchError/timedOut(after:url:)`` when `timeout` passes first.
    static func run<T: Sendable>(
        timeout: Duration, url: URL, operation: @escaping @Sendable () async -> Result<T, FetchError>
    ) async -> Result<T, FetchError> {
        await withTaskGroup(of: Result<T, FetchError>?.self) { group in
            group.addTask { await operation() }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                    return .failure(.timedOut(after: timeout, url: url))
                } catch {
                    return nil  // cancelled: the operation finished first or the caller was cancelled
                }
            }
            var outcome: Result<T, FetchError> = .failure(.cancelled(url: url))
            while let next = await group.next() {
                guard let next else { continue }
                outcome = next
                group.cancelAll()
                break
            }
            return outcome
        }
    }
}
