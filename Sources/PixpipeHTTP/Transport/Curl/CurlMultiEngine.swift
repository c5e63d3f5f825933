internal import CLibCurl
internal import CPixpipeHTTP
internal import CPixpipeSystem
import Foundation
import PixpipeLocking

/// Runs HTTP transfers on one libcurl multi handle driven by its own thread, bridged to async/await.
///
/// Connections, TLS sessions and easy handles are reused across transfers; HTTP/2 streams share a
/// connection when the server offers it. Each ``perform(_:sink:)`` resumes exactly once, on
/// completion, failure or cancellation; cancelling removes the transfer from libcurl at once.
final class CurlMultiEngine: Sendable {
    /// The engine the curl transport uses unless told otherwise; it lives as long as the process.
    static let shared = CurlMultiEngine()

    /// Live counts of transfers, handles, sockets and the thread.
    let counters = CurlEngineCounters()
    private let inbox: CurlEngineInbox
    /// The engine thread, once it runs.
    private let threadID = Locked<pthread_t?>(nil)

    /// Whether the caller runs on the engine thread (for tests of tasks that prefer it).
    var isCurrentThread: Bool {
        threadID.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Starts an engine and its thread.
    init(configuration: CurlEngineConfiguration = CurlEngineConfiguration()) {
        CurlGlobal.initializeOnce()
        guard let raw = curl_multi_init() else {
            // Only fails when memory is exhausted; there is nothing sensible to run on.
            fatalError("curl_multi_init failed")
        }
        _ = pxp_curl_multi_setopt_long(raw, CURLMOPT_PIPELINING, pxp_curl_pipe_multiplex)
        _ = pxp_curl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = pxp_curl_multi_setopt_long(raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxTotalConnections)
        _ = pxp_curl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, configuration.connectionCacheSize)
        let multi = CurlMultiPointer(raw: raw)
        let inbox = CurlEngineInbox(multi: multi)
        self.inbox = inbox
        let counters = counters
        counters.update { $0.threadRunning = true }
        // Unowned, like every task's executor preference: jobs only arrive while the engine is referenced.
        let executor = UnownedTaskExecutor(ordinary: self)
        let threadID = threadID
        let thread = Thread {
            _ = pxp_set_current_thread_name("pixpipe-curl")
            threadID.withLock { $0 = pthread_self() }
            CurlMultiLoop(
                multi: multi, inbox: inbox, counters: counters, configuration: configuration, executor: executor
            ).run()
        }
        thread.start()
    }

    deinit {
        inbox.requestStop()
    }

    /// Runs one transfer, streaming the body into `sink`, and returns the final response's head.
    func perform(
        _ request: CurlTransferRequest,
        sink: any CurlResponseSink
    ) async throws(CurlTransferError) -> CurlTransferOutcome {
        let transfer = CurlTransfer(request: request, sink: sink)
        let inbox = inbox
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.attach(continuation)
                if !inbox.submit(transfer) { transfer.finish(.failure(.engineStopped)) }
            }
        } onCancel: {
            if transfer.requestCancel() { inbox.cancel(transfer) }
        }
        return try result.get()
    }

    /// Finishes every transfer with ``CurlTransferError/engineStopped``, closes all connections and ends the thread.
    func shutdown() async {
        inbox.requestStop()
        await inbox.waitForExit()
    }
}

/// libcurl's process-wide initialisation, done once before the first handle.
enum CurlGlobal {
    private static let initialized: Bool = curl_global_init(pxp_curl_global_default) == CURLE_OK

    /// Initialises libcurl if nothing did yet (curl_global_init is reference-counted and thread-safe here).
    static func initializeOnce() {
        _ = initialized
    }
}

/// The engine thread as a task executor: tasks that prefer it run their jobs between turns of the transfer loop.
///
/// A task that sends many small requests and does little with each response runs faster here than on the
/// global executor: resuming it after a transfer costs no thread wake-up, no context switch and no hand-over of
/// the response between cores. Whatever such a task does between requests delays every transfer of the engine,
/// so heavy work (decoding, hashing, file writes) belongs on the global executor.
extension CurlMultiEngine: TaskExecutor {
    /// Queues `job` for the engine thread, or hands it to the global executor once the engine has stopped.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !inbox.enqueue(job) { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}

/// Limits of a ``CurlMultiEngine``: how many connections it opens and how many idle handles it keeps.
struct CurlEngineConfiguration: Sendable, Hashable {
    /// Connections to one host at once (`CURLMOPT_MAX_HOST_CONNECTIONS`); more transfers queue or multiplex.
    var maxConnectionsPerHost = 8
    /// Connections in total at once (`CURLMOPT_MAX_TOTAL_CONNECTIONS`).
    var maxTotalConnections = 64
    /// Idle connections kept open for reuse (`CURLMOPT_MAXCONNECTS`).
    var connectionCacheSize = 64
    /// Idle easy handles kept for reuse; more are freed when their transfer ends.
    var maxPooledHandles = 64

    /// The defaults above.
    init() {}
}
