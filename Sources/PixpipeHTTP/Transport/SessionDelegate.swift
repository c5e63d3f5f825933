import Foundation
import PixpipeLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession's delegate for a ``URLSessionTransport``: routes each event to the ``URLSessionTransfer`` of its task.
///
/// A transfer may end before URLSession has reported the end of its task (see ``URLSessionTransfer``); the task then
/// stays here as draining until URLSession reports it, and the events still queued for it are dropped
/// without work.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Where `resume` and `cancel` of this session's tasks run, in order, with nobody waiting for them.
    ///
    /// Both block on the session's internal queue on Linux: called from the cooperative pool or the
    /// delegate queue they could stall every transfer. One queue per session, so that a session whose
    /// internal queue is busy (reading an endless body, say) never delays another session's cancel.
    let controlQueue = DispatchQueue(label: "pixpipe.transport.control")

    private struct Routes {
        /// Live transfers by task identifier.
        var live: [Int: URLSessionTransfer] = [:]
        /// Tasks whose transfer ended while URLSession may still report events for them.
        var draining: Set<Int> = []
    }

    private let routes = Locked(Routes())

    /// Starts routing events of `transfer.task` to `transfer`.
    func register(_ transfer: URLSessionTransfer) {
        routes.withLock { $0.live[transfer.task.taskIdentifier] = transfer }
    }

    /// Stops routing events to `transfer`, whose caller has its outcome.
    func unregister(_ transfer: URLSessionTransfer) {
        let identifier = transfer.task.taskIdentifier
        routes.withLock { routes in
            guard routes.live.removeValue(forKey: identifier) != nil else { return }
            if transfer.wasStarted { routes.draining.insert(identifier) }
        }
    }

    private func transfer(for task: URLSessionTask) -> URLSessionTransfer? {
        routes.withLock { $0.live[task.taskIdentifier] }
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
        enum Route { case transfer(URLSessionTransfer), drop, cancel }
        let route = routes.withLock { routes -> Route in
            if let transfer = routes.live[dataTask.taskIdentifier] { return .transfer(transfer) }
            // A task nobody waits for: cancel it once, then drop what it still delivers.
            return routes.draining.insert(dataTask.taskIdentifier).inserted ? .cancel : .drop
        }
        switch route {
        case .transfer(let transfer): transfer.receivedBody(data)
        case .drop: break
        case .cancel: controlQueue.async { dataTask.cancel() }
        }
    }

    /// Redirects follow the transport request's policy rather than URLSession's.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task), let target = request.url else {
            completionHandler(nil)
            controlQueue.async { task.cancel() }
            return
        }
        // `target` is the URL URLSession fetches next if allowed, so the policy decides on exactly that URL.
        if transfer.redirecting(from: response.url, to: target) {
            completionHandler(transfer.redirectRequest(request))
        } else {
            completionHandler(nil)
            transfer.refusedRedirect()
        }
    }

    /// The task ended, successfully or not.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // Removed here, under the lock, so that `unregister` never marks an ended task as draining.
        let transfer = routes.withLock { routes in
            routes.draining.remove(task.taskIdentifier)
            return routes.live.removeValue(forKey: task.taskIdentifier)
        }
        transfer?.completed(error: error)
    }
}
