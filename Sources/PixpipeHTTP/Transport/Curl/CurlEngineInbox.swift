internal import CLibCurl
import PixpipeLocking

/// The `CURLM *` of an engine, carried to the engine thread.
///
/// Sendable because, once created, only the engine thread calls libcurl on it, with one exception:
/// `curl_multi_wakeup`, which libcurl documents as safe from any thread, and which the inbox calls
/// only under its lock while the handle is still open (the engine thread closes the inbox, under
/// the same lock, before `curl_multi_cleanup`).
struct CurlMultiPointer: @unchecked Sendable {
    /// The multi handle.
    let raw: UnsafeMutableRawPointer
}

/// Work handed to the engine thread: submissions, cancellations and the stop request, behind one lock.
final class CurlEngineInbox: Sendable {
    /// What the engine thread takes in one go.
    struct Work {
        var submissions: [CurlTransfer] = []
        var cancellations: [CurlTransfer] = []
        var stopRequested = false
    }

    private struct State {
        var work = Work()
        var closed = false
        var exited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: CurlMultiPointer
    private let state = Locked(State())

    /// An inbox that wakes `multi` when work arrives.
    init(multi: CurlMultiPointer) {
        self.multi = multi
    }

    /// Queues a transfer; false when the engine is stopping and will never run it.
    func submit(_ transfer: CurlTransfer) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.work.stopRequested else { return false }
            state.work.submissions.append(transfer)
            curl_multi_wakeup(multi.raw)
            return true
        }
    }

    /// Queues the cancellation of a transfer (already marked cancelled).
    func cancel(_ transfer: CurlTransfer) {
        state.withLock { state in
            guard !state.closed else { return }
            state.work.cancellations.append(transfer)
            curl_multi_wakeup(multi.raw)
        }
    }

    /// Asks the engine thread to finish every transfer and exit.
    func requestStop() {
        state.withLock { state in
            guard !state.closed, !state.work.stopRequested else { return }
            state.work.stopRequested = true
            curl_multi_wakeup(multi.raw)
        }
    }

    /// Takes everything queued so far (engine thread).
    func take() -> Work {
        state.withLock { state in
            let work = state.work
            state.work = Work(submissions: [], cancellations: [], stopRequested: work.stopRequested)
            return work
        }
    }

    /// Refuses further work and returns what was queued meanwhile (engine thread, before freeing the multi handle).
    func close() -> [CurlTransfer] {
        state.withLock { state in
            state.closed = true
            defer { state.work = Work() }
            return state.work.submissions
        }
    }

    /// Records that the engine thread ended and resumes whoever waits for it.
    func markExited() {
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.exitWaiters = [] }
            return state.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the engine thread has ended.
    func waitForExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyExited = state.withLock { state in
                if !state.exited { state.exitWaiters.append(continuation) }
                return state.exited
            }
            if alreadyExited { continuation.resume() }
        }
    }
}
