import Foundation
import Testing

@testable import Pixpipe

/// The pipeline's bookkeeping alone: events in, effects out, no I/O.
@Suite("Pipeline state")
struct PipelineStateTests {
    /// Tasks need a coordinator to exist; its work never starts here, since no effect is carried out.
    let coordinator = ImagePipelineCoordinator(configuration: .init(imageCache: nil))
    let url = URL(string: "http://127.0.0.1:1/a.png")!

    func task(_ id: UInt64, processing: [any ImageProcessing] = [], priority: ImageRequest.Priority = .normal)
        -> ImageTask
    {
        ImageTask(
            request: ImageRequest(url: url, processing: processing, priority: priority), id: id,
            coordinator: coordinator)
    }

    func add(_ task: ImageTask, to state: inout PipelineState, processed: Bool = false) -> CoordinatorEffects {
        var effects = CoordinatorEffects()
        _ = state.add(task, key: task.request.cacheKey, cached: { nil }, looksUpProcessed: processed, effects: &effects)
        return effects
    }

    @Test("Tasks for one URL share one download; one per processing share one decode")
    func sharing() {
        var state = PipelineState(downloadWidth: 2, decodeWidth: 1)
        let thumbnail = ImageProcessors.Thumbnail(ThumbnailOptions(size: .box(8)))
        let first = add(task(1), to: &state)
        #expect(first.downloads.count == 1)
        #expect(add(task(2), to: &state).downloads.isEmpty)
        #expect(add(task(3, processing: [thumbnail]), to: &state).downloads.isEmpty)
        #expect(state.downloads.count == 1 && state.decodes.count == 2 && state.callers.count == 3)

        var effects = CoordinatorEffects()
        let source = DecodeSource(data: Data([1, 2, 3]), metadata: nil, isProcessed: false)
        state.downloadEnded(url, generation: first.downloads[0].generation, result: .success(source), effects: &effects)
        // One decode slot: one of the two decodes starts, the other waits.
        #expect(effects.decodes.count == 1 && state.decodeQueue.waitingCount == 1 && state.downloads.isEmpty)
    }

    @Test("The last task leaving a running download cancels it; a queued one is simply dropped")
    func cancellation() {
        var state = PipelineState(downloadWidth: 1, decodeWidth: 1)
        let started = add(task(1), to: &state)
        let recorded = state.recordTransfer(Task {}, for: url, generation: started.downloads[0].generation)
        #expect(recorded)
        _ = add(task(2), to: &state)
        var effects = CoordinatorEffects()
        state.cancel(1, effects: &effects)
        #expect(effects.finished.count == 1 && effects.cancelledTransfers.isEmpty)
        state.cancel(2, effects: &effects)
        #expect(effects.finished.count == 2 && effects.cancelledTransfers.count == 1)
        #expect(state.downloads.isEmpty && state.decodes.isEmpty && state.callers.isEmpty)
        // Cancelling again does nothing.
        state.cancel(2, effects: &effects)
        #expect(effects.finished.count == 2)
    }

    @Test("A shared download waits at its most urgent caller's priority, and follows changes")
    func sharedPriority() {
        var state = PipelineState(downloadWidth: 1, decodeWidth: 1)
        let blocker = ImageTask(
            request: ImageRequest(url: URL(string: "http://127.0.0.1:1/blocker")!), id: 9, coordinator: coordinator)
        _ = add(blocker, to: &state)
        let other = ImageTask(
            request: ImageRequest(url: URL(string: "http://127.0.0.1:1/other")!), id: 8, coordinator: coordinator)
        _ = add(other, to: &state)
        _ = add(task(1, priority: .low), to: &state)
        _ = add(task(2, priority: .veryLow), to: &state)
        #expect(state.downloadQueue.waitingCount == 2)
        // `/other` (normal) is ahead of `/a.png` (low) until a caller of `/a.png` becomes urgent.
        state.setPriority(of: 2, to: .high)
        var effects = CoordinatorEffects()
        let blockerGeneration = state.downloads[blocker.request.url]!.generation
        state.downloadEnded(
            blocker.request.url, generation: blockerGeneration, result: .failure(.cancelled(url: url)),
            effects: &effects)
        #expect(effects.downloads.map(\.url) == [url])
    }

    @Test("With processed outputs, a new decode looks on the disk first and downloads only on a miss")
    func processedLookup() {
        var state = PipelineState(downloadWidth: 1, decodeWidth: 1)
        let thumbnail = ImageProcessors.Thumbnail(ThumbnailOptions(size: .box(8)))
        let effects = add(task(1, processing: [thumbnail]), to: &state, processed: true)
        #expect(effects.lookups.count == 1 && effects.downloads.isEmpty)
        // No processing: nothing processed to look for.
        #expect(add(task(2), to: &state, processed: true).downloads.count == 1)
        var after = CoordinatorEffects()
        state.lookupEnded(
            effects.lookups[0].key, generation: effects.lookups[0].generation, found: nil, effects: &after)
        #expect(state.downloads[url]?.decodes.count == 2)
    }
}
