import Foundation
import PixpipeLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession data task and the async caller waiting for it.
///
/// Events arrive on URLSession's delegate queue while the caller may be cancelled from any thread, so the
/// state sits behind a `Locked` (a pthread mutex); the caller's continuation is resumed exactly once, outside the lock.
///
/// When the transfer itself decides to stop (body over the cap, a refused redirect, the caller cancelled) the
/// caller gets its error at once and the task is cancelled once. Waiting for URLSession to report the end
/// would mean waiting for its delegate queue to drain: on Linux it reads on, without backpressure, until the
/// cancel lands, and queues every chunk it read for the delegate (5.8 GB of an endless body queued that way
/// on a loaded CI machine, drained in 497 s, before this was so).
final class URLSessionTransfer: Sendable {
    /// The caller's continuation with the outcome to resume it with.
    private typealias Delivery = (
        CheckedContinuation<Result<TransportResponse, HTTPError>, Never>, Result<TransportResponse, HTTPError>
    )

    /// The URLSession task.
    let task: URLSessionDataTask
    /// Where `resume` and `cancel` run: both block on URLSession's internal queue on Linux, so they run on
    /// the session's own serial queue (see ``SessionDelegate/controlQueue``) and nobody waits for them.
    private let controlQueue: DispatchQueue
    /// Where progress goes.
    private let progress: @Sendable (TransferProgress) -> Void
    /// The event state plus the continuation and whether the task was started.
    private let guarded: Locked<Guarded>

    private struct Guarded {
        var state: URLSessionTransferState
        var continuation: CheckedContinuation<Result<TransportResponse, HTTPError>, Never>?
        var outcome: Result<TransportResponse, HTTPError>?
        var started = false
        var delivered = false
        /// Set once the transfer asked URLSession to cancel the task; later events are ignored.
        var stopped = false
    }

    /// A transfer for `request` carried by `task`, started and cancelled on `controlQueue`.
    init(
        task: URLSessionDataTask, request: TransportRequest, controlQueue: DispatchQueue,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) {
        self.task = task
        self.controlQueue = controlQueue
        self.progress = progress
        self.guarded = Locked(Guarded(state: URLSessionTransferState(request: request)))
    }

    /// Starts the task and waits for its outcome; cancellation of the calling task cancels the transfer.
    func run() async -> Result<TransportResponse, HTTPError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Result<TransportResponse, HTTPError>? = guarded.withLock { guarded in
                    if guarded.state.isCancelled { return .failure(.cancelled(url: guarded.state.request.url)) }
                    if let outcome = guarded.outcome { return outcome }
                    guarded.continuation = continuation
                    guarded.started = true
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                } else {
                    controlQueue.async { [task] in task.resume() }
                }
            }
        } onCancel: {
            // Not started: `run` sees the flag and returns without ever resuming the task.
            stop { $0.isCancelled = true }
        }
    }

    /// Whether the task was resumed (so URLSession will report its end).
    var wasStarted: Bool {
        guarded.withLock { $0.started }
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

    /// Body bytes arrived; reports progress, or stops the transfer when the cap is exceeded.
    func receivedBody(_ chunk: Data) {
        let update = guarded.withLock { $0.state.receivedBody(chunk) }
        if let update {
            progress(update)
        } else {
            stop { _ in }
        }
    }

    /// A redirect; returns whether the policy allows following it.
    func redirecting(from source: URL?, to target: URL) -> Bool {
        guarded.withLock { $0.state.redirecting(from: source, to: target) }
    }

    /// The request to send for an allowed redirect: `proposed` without the headers kept from another origin.
    func redirectRequest(_ proposed: URLRequest) -> URLRequest {
        guarded.withLock { $0.state.redirectRequest(proposed) }
    }

    /// The redirect was refused and URLSession told so: the caller gets the refusal, the task is cancelled.
    ///
    /// Only after URLSession's redirect completion handler ran: a cancel that lands while URLSession still
    /// waits for that handler makes FoundationNetworking trap ("Received callback for HTTP redirection, but
    /// we're not waiting for it").
    func refusedRedirect() {
        stop { _ in }
    }

    /// Applies `change` to the state, then, the first time only, hands the caller its outcome (the state's
    /// failure, or cancellation) without waiting for URLSession, and cancels the task if it was started.
    private func stop(_ change: (inout URLSessionTransferState) -> Void) {
        let (delivery, cancel) = guarded.withLock {
            guarded -> (Delivery?, Bool) in
            change(&guarded.state)
            guard !guarded.stopped else { return (nil, false) }
            guarded.stopped = true
            guard !guarded.delivered else { return (nil, guarded.started) }
            let outcome = guarded.state.completed(error: nil)
            guard let continuation = guarded.continuation else {
                guarded.outcome = outcome
                return (nil, guarded.started)
            }
            guarded.delivered = true
            guarded.continuation = nil
            return ((continuation, outcome), guarded.started)
        }
        if cancel { controlQueue.async { [task] in task.cancel() } }
        if let (continuation, outcome) = delivery {
            continuation.resume(returning: outcome)
        }
    }

    /// The task ended; resumes the caller exactly once.
    func completed(error: (any Error)?) {
        let delivery: Delivery? =
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
