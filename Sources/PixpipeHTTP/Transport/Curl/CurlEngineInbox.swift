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
        /// Jobs of tasks that prefer the engine's thread (see ``CurlMultiEngine``'s `TaskExecutor` conformance).
        var jobs: [UnownedJob] = []
        /// The engine thread is (about to be) blocked in `curl_multi_poll` with nothing queued: the next
        /// piece of work must wake it. Otherwise it takes the work before it next blocks, and no wake-up
        /// (a `send` on libcurl's socket pair, then a `poll` return and a `recv`) is spent.
        var engineWaiting = false
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
            wakeIfWaiting(&state)
            return true
        }
    }

    /// Queues a task's job to run on the engine thread; false once the engine has stopped taking work.
    func enqueue(_ job: UnownedJob) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            wakeIfWaiting(&state)
            return true
        }
    }

    /// Takes the queued jobs (engine thread), keeping the array's storage for the next ones.
    func takeJobs(into jobs: inout [UnownedJob]) {
        state.withLock { state in swap(&jobs, &state.jobs) }
    }

    /// Queues the cancellation of a transfer (already marked cancelled).
    func cancel(_ transfer: CurlTransfer) {
        state.withLock { state in
            guard !state.closed else { return }
            state.work.cancellations.append(transfer)
            wakeIfWaiting(&state)
        }
    }

    /// Asks the engine thread to finish every transfer and exit.
    func requestStop() {
        state.withLock { state in
            guard !state.closed, !state.work.stopRequested else { return }
            state.work.stopRequested = true
            wakeIfWaiting(&state)
        }
    }

    /// Wakes the engine thread if it waits for work (under the lock, so the multi handle is still open).
    private func wakeIfWaiting(_ state: inout State) {
        guard state.engineWaiting else { return }
        state.engineWaiting = false
        curl_multi_wakeup(multi.raw)
    }

    /// Whether the engine thread may block in `curl_multi_poll` now: `true` when nothing is queued, and
    /// from then on submitters wake it; `false` when work arrived since ``take()`` (engine thread).
    func beginWaiting() -> Bool {
        state.withLock { state in
            let idle =
                state.work.submissions.isEmpty && state.work.cancellations.isEmpty && !state.work.stopRequested
                && state.jobs.isEmpty
            state.engineWaiting = idle
            return idle
        }
    }

    /// The engine thread is back from `curl_multi_poll`; work arriving now needs no wake-up.
    func endWaiting() {
        state.withLock { $0.engineWaiting = false }
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
    func close() -> (submissions: [CurlTransfer], jobs: [UnownedJob]) {
        state.withLock { state in
            state.closed = true
            defer {
                state.work = Work()
                state.jobs = []
            }
            return (state.work.submissions, state.jobs)
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
