import Foundation

extension TestHTTPServer {
    /// Waits until `count` requests for `path` have arrived; returns false if `timeout` seconds pass first.
    public func waitForRequests(_ path: String, count: Int, timeout: Double) async -> Bool {
        await waitUntil(timeout: timeout) { requestCount(path) >= count }
    }

    /// Waits until `count` responses for `path` have been carried out; false if `timeout` seconds pass first.
    public func waitForCompletedResponses(_ path: String, count: Int, timeout: Double) async -> Bool {
        await waitUntil(timeout: timeout) { completedResponses(path) >= count }
    }

    /// Waits until a response for `path` has been cut off by the client; false if `timeout` seconds pass first.
    public func waitForAbortedResponse(_ path: String, timeout: Double) async -> Bool {
        await waitUntil(timeout: timeout) { abortedResponses(path) >= 1 }
    }

    /// Polls `condition` every few milliseconds: the server's threads cannot resume an async waiter
    /// directly without a continuation registry, and a test wait of a few milliseconds costs nothing.
    private func waitUntil(timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                break  // Cancelled: answer with what is true now.
            }
        }
        return condition()
    }
}
