/// Something in flight that can be stopped, such as a request started with a completion handler.
public protocol Cancellable: Sendable {
    /// Stops the work; a pending completion handler receives ``HTTPError/cancelled(url:)``.
    func cancel()
}
