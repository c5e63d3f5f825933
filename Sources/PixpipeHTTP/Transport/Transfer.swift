import Foundation
import PixpipeLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession data task and the async caller waiting for it.
///
/// Events arrive on URLSession's delegate queue while the caller may be cancelled from any thread, so the
/// state sits behind a `Locked` (a pthread mutex); the caller's continuation is resumed exactly once, outside the lock.
final class Transfer: Sendable {
    /// Where `resume` and `cancel` run. Both block on URLSession's internal queue on Linux; called from
    /// the two-thread cooperative pool or from the delegate queue they can stall every transfer, so they
    /// run here, in order, and nobody waits for them.
    static let controlQueue = DispatchQueue(label: "pixpipe.transport.control")

    /// The URLSession task.
    let task: URLSessionDataTask
    /// Where progress goes.
    private let progress: @Sendable (TransferProgress) -> Void
    /// The event state plus the continuation and whether the task was started.
    private let guarded: Locked<Guarded>

    private struct Guarded {
        var state: TransferState
        var continuation: CheckedContinuation<Result<TransportResponse, FetchError>, Never>?
        var outcome: Result<TransportResponse, FetchError>?
        var started = false
        var delivered = false
    }

    /// A transfer for `request` carried by `task`.
    init(task: URLSessionDataTask, request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void)
    {
        self.task = task
        self.progress = progress
        self.guarded = Locked(Guarded(state: TransferState(request: request)))
    }

    /// Starts the task and waits for its outcome; cancellation of the calling task cancels the transfer.
    func run() async -> Result<TransportResponse, FetchError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Result<TransportResponse, FetchError>? = guarded.withLock { guarded in
                    if guarded.state.isCancelled { return .failure(.cancelled(url: guarded.state.request.url)) }
                    if let outcome = guarded.outcome { return outcome }
                    guarded.continuation = continuation
                    guarded.started = true
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                } else {
                    Transfer.controlQueue.async { [task] in task.resume() }
                }
            }
        } onCancel: {
            let started = guarded.withLock { guarded in
                guarded.state.isCancelled = true
                return guarded.started
            }
            // Not started: `run` sees the flag and returns without ever resuming the task.
            if started { cancelTask() }
        }
    }

    /// Headers arrived; returns whether to continue.
    func receivedHeaders(_ response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        var headers = HTTPHeaders()
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        let expected = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        return guarded.withLock { guarded in
            guarded.state.receivedHeaders(
                statusCode: http?.statusCode ?? 0, headers: headers, url: response.url ?? guarded.state.currentURL,
                expectedLength: expected)
        }
    }

    /// Body bytes arrived; reports progress or cancels the task when the cap is exceeded.
    func receivedBody(_ chunk: Data) {
        let update = guarded.withLock { $0.state.receivedBody(chunk) }
        if let update {
            progress(update)
        } else {
            cancelTask()
        }
    }

    /// Cancels the URLSession task without waiting for URLSession.
    func cancelTask() {
        Transfer.controlQueue.async { [task] in task.cancel() }
    }

    /// A redirect; returns whether the policy allows following it.
    func redirecting(from source: URL?, to target: URL) -> Bool {
        guarded.withLock { $0.state.redirecting(from: source, to: target) }
    }

    /// The task ended; resumes the caller exactly once.
    func completed(error: (any Error)?) {
        let delivery:
            (CheckedContinuation<Result<TransportResponse, FetchError>, Never>, Result<TransportResponse, FetchError>)? =
                guarded.withLock { guarded in
                    guard !guarded.delivered else { return nil }
                    let outcome = guarded.state.completed(error: error)
                    guard let continuation = guarded.continuation else {
                        guarded.outcome = outcome
                        return nil
                    }
                    guarded.delivered = true
                    guarded.continuation = nil
                    return (continuation, outcome)
                }
        if let (continuation, outcome) = delivery {
            continuation.resume(returning: outcome)
        }
    }
}
