import Foundation
import PixpipeLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession's delegate for a ``URLSessionTransport``: routes each event to the ``Transfer`` of its task.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Live transfers by task identifier.
    private let transfers = Locked<[Int: Transfer]>([:])

    /// Starts routing events of `transfer.task` to `transfer`.
    func register(_ transfer: Transfer) {
        transfers.withLock { $0[transfer.task.taskIdentifier] = transfer }
    }

    /// Stops routing events for task `identifier`.
    func unregister(taskIdentifier identifier: Int) {
        _ = transfers.withLock { $0.removeValue(forKey: identifier) }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    /// Headers arrived: the declared length is checked against the cap before any body byte is read.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = transfer(for: dataTask)?.receivedHeaders(response) ?? false
        completionHandler(proceed ? .allow : .cancel)
    }

    /// Body bytes arrived.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else {
            Transfer.controlQueue.async { dataTask.cancel() }
            return
        }
        transfer.receivedBody(data)
    }

    /// Redirects follow the transport request's policy rather than URLSession's.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task), let target = request.url else {
            completionHandler(nil)
            Transfer.controlQueue.async { task.cancel() }
            return
        }
        if transfer.redirecting(from: response.url, to: target) {
            completionHandler(request)
        } else {
            completionHandler(nil)
            transfer.cancelTask()
        }
    }

    /// The task ended, successfully or not.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(for: task)?.completed(error: error)
    }
}
