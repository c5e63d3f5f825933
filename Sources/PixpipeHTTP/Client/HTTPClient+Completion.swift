import Dispatch
import Foundation

extension HTTPClient {
    /// Starts `request` in its own task; see ``FetchTask``.
    public func task<Value>(for request: Request<Value>) -> FetchTask<Value> {
        FetchTask(client: self, request: request)
    }

    /// Sends `request` and calls `completion` once with the outcome, on `queue` when given (otherwise on
    /// an arbitrary thread). Cancelling the returned task delivers ``HTTPError/cancelled(url:)``.
    @discardableResult
    public func send<Value>(
        _ request: Request<Value>, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Value, HTTPError>) -> Void
    ) -> FetchTask<Value> {
        let fetch = task(for: request)
        Task {
            let result = await fetch.result
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        return fetch
    }
}

extension Request {
    /// Sends the request with `client` (the shared client by default) and calls `completion` with the outcome.
    ///
    /// ```swift
    /// Request<JSON>(url: url).response { result in
    ///     switch result {
    ///     case .success(let json): print(json)
    ///     case .failure(let error): print(error)
    ///     }
    /// }
    /// ```
    @discardableResult
    public func response(
        using client: HTTPClient = .shared, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Value, HTTPError>) -> Void
    ) -> FetchTask<Value> {
        client.send(self, queue: queue, completion: completion)
    }

    /// Sends the request with `client` (the shared client by default) and returns the value.
    public func send(using client: HTTPClient = .shared) async throws(HTTPError) -> Value {
        try await client.send(self)
    }
}
