import PixpipeLocking

/// One submitted transfer as both sides see it: the waiting task and the engine thread.
///
/// Its continuation is resumed exactly once, by whichever of completion, failure, cancellation
/// or shutdown comes first; later attempts find it gone and do nothing.
final class CurlTransfer: Sendable {
    typealias Completion = CheckedContinuation<Result<CurlTransferOutcome, CurlTransferError>, Never>

    private struct State {
        var continuation: Completion?
        var cancelRequested = false
        var finished = false
    }

    /// What to fetch and how.
    let request: CurlTransferRequest
    /// Where the response goes as it streams.
    let sink: any CurlResponseSink
    private let state = Locked(State())

    /// A transfer that is not yet waited on.
    init(request: CurlTransferRequest, sink: any CurlResponseSink) {
        self.request = request
        self.sink = sink
    }

    /// Whether cancellation was asked for (possibly before the engine saw the transfer).
    var isCancelRequested: Bool { state.withLock { $0.cancelRequested } }

    /// Records the continuation to resume; called before the transfer is handed to the engine.
    func attach(_ continuation: Completion) {
        state.withLock { $0.continuation = continuation }
    }

    /// Marks the transfer cancelled; returns false when it had already finished.
    func requestCancel() -> Bool {
        state.withLock { state in
            state.cancelRequested = true
            return !state.finished
        }
    }

    /// Resumes the waiting task with `result`, if nothing resumed it before.
    func finish(_ result: Result<CurlTransferOutcome, CurlTransferError>) {
        let continuation = state.withLock { state -> Completion? in
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        // Resumed outside the lock: resuming may run code of the waiting task's executor.
        continuation?.resume(returning: result)
    }
}
