internal import CLibCurl
internal import CPixpipeHTTP
import Foundation

/// The engine thread's side of a ``CurlMultiEngine``: the multi handle, the running transfers and the handle pool.
///
/// Every libcurl call of the engine happens here, on one thread, so none of this state needs a lock.
final class CurlMultiLoop {
    private let multi: UnsafeMutableRawPointer
    private let inbox: CurlEngineInbox
    private let counters: CurlEngineCounters
    private let configuration: CurlEngineConfiguration
    private var pool: [CurlEasyHandle] = []
    private var activeByTransfer: [ObjectIdentifier: CurlActiveTransfer] = [:]
    private var activeByHandle: [UnsafeMutableRawPointer: CurlActiveTransfer] = [:]
    /// How many running transfers have an idle timeout; without any, the loop skips looking for expired ones.
    private var idleTimedTransfers = 0
    /// Transfers that ended in this turn of the loop, resumed together before the engine waits again.
    private var ended: [(transfer: CurlTransfer, result: Result<CurlTransferOutcome, CurlTransferError>)] = []
    /// The engine as the executor of the task jobs this thread runs.
    private let executor: UnownedTaskExecutor
    /// Task jobs taken from the inbox, run one after another at the start of a turn.
    private var jobs: [UnownedJob] = []

    /// How long to sleep when nothing is running; `curl_multi_wakeup` interrupts it when work arrives.
    private static let idlePollMilliseconds: Int32 = 10_000

    /// The longest sleep while transfers run. With libcurl 7.88 (Debian 12), about one run in eight of 50
    /// requests multiplexed over one TLS connection left one stream stalled until its timeout: its bytes
    /// appear to sit in libcurl's TLS or HTTP/2 buffers while the socket has nothing to read, so polling
    /// the socket never wakes it (libcurl later fixed stalls of this kind, "multi: fix polling with
    /// pending input"). Calling `curl_multi_perform` at least every 50 ms finds them: 0 stalls in 20 runs.
    private static let busyPollMilliseconds: Int32 = 50

    init(
        multi: CurlMultiPointer,
        inbox: CurlEngineInbox,
        counters: CurlEngineCounters,
        configuration: CurlEngineConfiguration,
        executor: UnownedTaskExecutor
    ) {
        self.multi = multi.raw
        self.inbox = inbox
        self.counters = counters
        self.configuration = configuration
        self.executor = executor
    }

    /// Runs transfers until asked to stop, then frees everything and returns.
    func run() {
        while true {
            // Tasks resumed last turn go first: the requests they send are then in this turn's work.
            runJobs()
            let work = inbox.take()
            for transfer in work.submissions { start(transfer) }
            for transfer in work.cancellations { cancel(transfer) }
            if work.stopRequested { break }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            let nextIdleDeadline = expireIdleTransfers()
            resumeEnded()
            // With work already queued, only a look at the sockets (no wait) before taking it.
            let timeout = inbox.beginWaiting() ? pollTimeout(until: nextIdleDeadline) : 0
            _ = curl_multi_poll(multi, nil, 0, timeout, nil)
            inbox.endWaiting()
        }
        tearDown()
    }

    private func runJobs() {
        inbox.takeJobs(into: &jobs)
        for job in jobs { job.runSynchronously(on: executor) }
        jobs.removeAll(keepingCapacity: true)
    }

    // MARK: Starting and ending transfers

    private func start(_ transfer: CurlTransfer) {
        guard !transfer.isCancelRequested else { return record(transfer, .failure(.cancelled)) }
        guard let easy = pool.popLast() ?? makeHandle() else {
            let error = CurlTransferError.transport(
                code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "cannot allocate an easy handle",
                url: transfer.request.url)
            return record(transfer, .failure(error))
        }
        let active = CurlActiveTransfer(transfer: transfer, easy: easy, now: .now)
        // Unretained: the dictionaries below keep `active` alive for as long as libcurl may call back.
        let context = Unmanaged.passUnretained(active).toOpaque()
        let socketContext = Unmanaged.passUnretained(counters).toOpaque()
        do {
            try easy.configure(for: transfer.request, context: context, socketContext: socketContext)
        } catch {
            recycle(active.easy)
            return record(transfer, .failure(error))
        }
        let added = curl_multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            recycle(active.easy)
            let message = String(cString: curl_multi_strerror(added))
            let error = CurlTransferError.transport(
                code: Int(added.rawValue), message: message, url: transfer.request.url)
            return record(transfer, .failure(error))
        }
        activeByTransfer[ObjectIdentifier(transfer)] = active
        activeByHandle[easy.raw] = active
        if transfer.request.idleTimeout != nil { idleTimedTransfers += 1 }
        counters.update { $0.activeTransfers += 1 }
    }

    private func cancel(_ transfer: CurlTransfer) {
        guard let active = activeByTransfer[ObjectIdentifier(transfer)] else { return }
        retire(active, .failure(.cancelled))
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let active = activeByHandle[handle]
            else { continue }
            let code = message.pointee.data.result
            if code == CURLE_OK, active.isRedirectResponse {
                follow(active)
            } else {
                retire(active, outcome(of: active, code: code))
            }
        }
    }

    /// Starts the next hop of a transfer whose response was a redirect, on the same easy handle (whose
    /// connection is back in the multi handle's cache), or ends the transfer when the policy refuses it.
    private func follow(_ active: CurlActiveTransfer) {
        // Read before the handle is set up again, which clears it.
        let redirectURL = active.easy.redirectURL
        let hop: CurlTransferRequest
        switch active.nextHop(redirectURL: redirectURL, now: .now) {
        case .failure(let error): return retire(active, .failure(error))
        case .success(let next): hop = next
        }
        _ = curl_multi_remove_handle(multi, active.easy.raw)
        active.easy.transferEnded()
        active.beginHop(hop)
        let context = Unmanaged.passUnretained(active).toOpaque()
        let socketContext = Unmanaged.passUnretained(counters).toOpaque()
        do {
            try active.easy.configure(for: hop, context: context, socketContext: socketContext)
        } catch {
            return retire(active, .failure(error))
        }
        let added = curl_multi_add_handle(multi, active.easy.raw)
        guard added == CURLM_OK else {
            let message = String(cString: curl_multi_strerror(added))
            return retire(active, .failure(.transport(code: Int(added.rawValue), message: message, url: hop.url)))
        }
    }

    private func outcome(
        of active: CurlActiveTransfer,
        code: CURLcode
    ) -> Result<CurlTransferOutcome, CurlTransferError> {
        guard code == CURLE_OK else {
            return .failure(active.error(for: code, message: active.easy.errorMessage, now: .now))
        }
        guard let head = active.finalHead else {
            let message = "the server closed the connection without a response"
            let code = Int(CURLE_GOT_NOTHING.rawValue)
            return .failure(.transport(code: code, message: message, url: active.currentURL))
        }
        return .success(
            CurlTransferOutcome(
                head: head,
                // The URL of the last hop, which the engine set itself (libcurl follows no redirect).
                effectiveURL: active.currentURL,
                bodyByteCount: active.bodyByteCount,
                redirectCount: active.redirectCount
            ))
    }

    /// Ends a running transfer: out of the multi handle, handle back to the pool, task resumed with the turn's others.
    private func retire(_ active: CurlActiveTransfer, _ result: Result<CurlTransferOutcome, CurlTransferError>) {
        _ = curl_multi_remove_handle(multi, active.easy.raw)
        activeByTransfer[ObjectIdentifier(active.transfer)] = nil
        activeByHandle[active.easy.raw] = nil
        if active.transfer.request.idleTimeout != nil { idleTimedTransfers -= 1 }
        counters.update { $0.activeTransfers -= 1 }
        recycle(active.easy)
        record(active.transfer, result)
    }

    private func record(_ transfer: CurlTransfer, _ result: Result<CurlTransferOutcome, CurlTransferError>) {
        ended.append((transfer, result))
    }

    /// Resumes the tasks of the transfers that ended, one after another.
    ///
    /// Back to back rather than each as its transfer ends: every resume hands a task to the cooperative
    /// pool, which wakes a sleeping thread (a futex call) when none is awake. Resumed in a burst, the first
    /// wake-ups find threads still running and the rest need none.
    private func resumeEnded() {
        guard !ended.isEmpty else { return }
        let count = ended.count
        counters.update { $0.finishedTransfers += count }
        for (transfer, result) in ended { transfer.finish(result) }
        ended.removeAll(keepingCapacity: true)
    }

    // MARK: Handle pool

    private func makeHandle() -> CurlEasyHandle? {
        guard let easy = CurlEasyHandle() else { return nil }
        counters.update { $0.liveEasyHandles += 1 }
        return easy
    }

    private func recycle(_ easy: CurlEasyHandle) {
        easy.transferEnded()
        if pool.count < configuration.maxPooledHandles {
            pool.append(easy)
        } else {
            easy.destroy()
            counters.update { $0.liveEasyHandles -= 1 }
        }
        counters.update { $0.pooledEasyHandles = pool.count }
    }

    // MARK: Idle timeouts

    /// Fails the transfers that received nothing for too long; returns the earliest deadline left.
    private func expireIdleTransfers() -> ContinuousClock.Instant? {
        guard idleTimedTransfers > 0 else { return nil }
        let now = ContinuousClock.now
        var earliest: ContinuousClock.Instant?
        var expired: [CurlActiveTransfer] = []
        for active in activeByTransfer.values {
            guard let deadline = active.idleDeadline else { continue }
            if deadline <= now {
                expired.append(active)
            } else if earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
        }
        for active in expired {
            let elapsed = (now - active.startedAt).milliseconds
            retire(active, .failure(.timedOut(.idle, elapsedMilliseconds: elapsed)))
        }
        return earliest
    }

    private func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int32 {
        let longest = activeByTransfer.isEmpty ? Self.idlePollMilliseconds : Self.busyPollMilliseconds
        guard let deadline else { return longest }
        let remaining = deadline - .now
        guard remaining > .zero else { return 0 }
        return Int32(clamping: min(remaining.millisecondsRoundedUp, Int(longest)))
    }

    // MARK: Shutdown

    private func tearDown() {
        for active in Array(activeByTransfer.values) { retire(active, .failure(.engineStopped)) }
        let (submissions, leftoverJobs) = inbox.close()
        for transfer in submissions { record(transfer, .failure(.engineStopped)) }
        resumeEnded()
        // Tasks that preferred this thread carry on on the global executor (as jobs enqueued from now on do).
        for job in leftoverJobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        for easy in pool { easy.destroy() }
        pool.removeAll()
        counters.update {
            $0.liveEasyHandles = 0
            $0.pooledEasyHandles = 0
        }
        // Closes the cached connections (through the close-socket callback, which still counts them).
        _ = curl_multi_cleanup(multi)
        counters.update { $0.threadRunning = false }
        inbox.markExited()
    }
}
