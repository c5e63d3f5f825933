import Foundation
import PixpipeLocking
import Testing

@testable import PixpipeHTTP

/// Runs `body` with a private engine, then shuts it down and checks it left nothing behind.
func withEngine<T>(
    _ configuration: CurlEngineConfiguration = CurlEngineConfiguration(),
    _ body: (CurlMultiEngine) async throws -> T
) async throws -> T {
    let engine = CurlMultiEngine(configuration: configuration)
    let result = try await body(engine)
    await engine.shutdown()
    let counters = engine.counters.snapshot
    #expect(counters.activeTransfers == 0)
    #expect(counters.liveEasyHandles == 0)
    #expect(counters.openSockets == 0)
    #expect(!counters.threadRunning)
    return result
}

/// Fetches `url` into memory.
func fetch(
    _ engine: CurlMultiEngine,
    _ request: CurlTransferRequest
) async throws(CurlTransferError) -> (CurlTransferOutcome, Data) {
    let collector = CurlBodyCollector()
    let outcome = try await engine.perform(request, sink: collector)
    return (outcome, collector.body)
}

/// Progress reports collected from the engine thread.
final class ProgressLog: Sendable {
    private let storage = Locked<[CurlTransferProgress]>([])
    func append(_ progress: CurlTransferProgress) { storage.withLock { $0.append(progress) } }
    var values: [CurlTransferProgress] { storage.withLock { $0 } }
}
