internal import CLibCurl
internal import CPixpipe
import Foundation

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
        let thread = Thread {
            CurlMultiLoop(multi: multi, inbox: inbox, counters: counters, configuration: configuration).run()
        }
        thread.name = "pixpipe-curl"
        thread.start()
    }

    deinit {
        inbox.requestStop()
    }

    /// Runs one transfer, streaming the body into `sink`, and returns the final response's head.
    func perform(
        _ request: CurlTransferRequest,
        sink: any CurlTransferSink
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
