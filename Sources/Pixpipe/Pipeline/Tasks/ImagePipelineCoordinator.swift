import Dispatch
import Foundation
import PixpipeHTTP
import PixpipeImage
import PixpipeLocking

/// Runs an ``ImagePipeline``'s jobs: keeps ``PipelineState`` under a lock, and starts downloads (tasks on
/// the global executor) and decodes (on Dispatch's global queue) as the state says.
///
/// A lock, not an actor: every event (a task added, cancelled or reprioritised, a job ended) is a few
/// dictionary updates that never suspend, and `ImageTask.cancel()` and its `priority` setter are
/// synchronous. Nothing runs under the lock but those updates (and a memory-cache lookup, under its own
/// lock): tasks are finished, jobs started and transfers cancelled after it is released. Decoding runs on
/// Dispatch's threads, never on the cooperative pool that resumes finished transfers, and at most
/// `maxConcurrentDecodes` at a time.
final class ImagePipelineCoordinator: Sendable {
    private let state: Locked<PipelineState>
    private let nextTaskID = Locked<UInt64>(0)
    private let imageCache: ImageCache?
    private let dataCache: DataCache?
    private let loader: OriginalDataLoader
    private let decodeOptions: DecodeOptions
    /// What the pipeline did, counted.
    let statistics: Locked<ImagePipeline.Statistics>

    init(configuration: ImagePipeline.Configuration) {
        state = Locked(
            PipelineState(
                downloadWidth: configuration.maxConcurrentDownloads, decodeWidth: configuration.maxConcurrentDecodes))
        imageCache = configuration.imageCache
        dataCache = configuration.dataCache
        decodeOptions = configuration.decodeOptions
        let statistics = Locked(ImagePipeline.Statistics())
        self.statistics = statistics
        loader = OriginalDataLoader(
            client: configuration.client, dataCache: configuration.dataCache, policy: configuration.cachePolicy,
            statistics: statistics)
    }

    /// A new task number.
    func makeTaskID() -> UInt64 {
        nextTaskID.withLock { id in
            id += 1
            return id
        }
    }

    /// How many tasks wait for an image.
    var pendingTaskCount: Int { state.withLock { $0.callers.count } }

    /// Starts work for `task`, or joins the work already under way for its URL and processing.
    func register(_ task: ImageTask) {
        let key = task.request.cacheKey
        let imageCache = self.imageCache
        let (effects, hit) = state.withLock { state in
            var effects = CoordinatorEffects()
            let hit = state.add(task, key: key, cached: { imageCache?.image(for: key) }, effects: &effects)
            return (effects, hit)
        }
        if hit { statistics.withLock { $0.memoryHits += 1 } }
        perform(effects)
    }

    /// Cancels `task` (see ``PipelineState/cancel(_:effects:)``).
    func cancel(_ task: ImageTask) {
        let effects = state.withLock { state in
            var effects = CoordinatorEffects()
            state.cancel(task.id, effects: &effects)
            return effects
        }
        perform(effects)
    }

    /// Moves `task`'s work to `priority` while it waits.
    func setPriority(of task: ImageTask, to priority: ImageRequest.Priority) {
        state.withLock { $0.setPriority(of: task.id, to: priority) }
    }

    /// Carries out what a state change asked for; never called under the lock.
    private func perform(_ effects: CoordinatorEffects) {
        for (task, result) in effects.finished { task.finish(with: result) }
        if !effects.cancelledTransfers.isEmpty {
            statistics.withLock { $0.cancelledTransfers += effects.cancelledTransfers.count }
            for transfer in effects.cancelledTransfers { transfer.cancel() }
        }
        for (url, generation) in effects.downloads { startDownload(url, generation: generation) }
        for start in effects.decodes { startDecode(start) }
    }

    private func startDownload(_ url: URL, generation: UInt64) {
        let loader = self.loader
        let transfer = Task {
            let result = await loader.load(url) { progress in
                self.reportProgress(progress, url: url, generation: generation)
            }
            let effects = self.state.withLock { state in
                var effects = CoordinatorEffects()
                state.downloadEnded(url, generation: generation, result: result, effects: &effects)
                return effects
            }
            self.perform(effects)
        }
        let recorded = state.withLock { $0.recordTransfer(transfer, for: url, generation: generation) }
        // Cancelled between the decision to start and now: nobody wants the bytes.
        if !recorded { transfer.cancel() }
    }

    private func reportProgress(_ progress: TransferProgress, url: URL, generation: UInt64) {
        let handlers = state.withLock { $0.progressHandlers(for: url, generation: generation) }
        for handler in handlers { handler(progress) }
    }

    private func startDecode(_ start: CoordinatorEffects.DecodeStart) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.statistics.withLock { $0.decodes += 1 }
            let result = Self.decode(start.data, request: start.request, options: self.decodeOptions)
            switch result {
            case .success(let image):
                // Stored before the job ends, so that a task arriving meanwhile either joins the job or hits.
                self.imageCache?.store(image, for: start.key)
            case .failure(let error):
                // Bytes that are not a whole image are not served again from the disk.
                if error.condemnsBytes { self.dataCache?.removeEntry(for: start.key.url.absoluteString) }
            }
            let effects = self.state.withLock { state in
                var effects = CoordinatorEffects()
                state.decodeEnded(start.key, generation: start.generation, result: result, effects: &effects)
                return effects
            }
            self.perform(effects)
        }
    }

    /// The image of `data` after the request's processing (the first step may decode at a reduced size).
    static func decode(_ data: Data, request: ImageRequest, options: DecodeOptions) -> Result<
        Image, ImagePipelineError
    > {
        do {
            return .success(try ImageProcessors.Composition(request.processing).process(data: data, options: options))
        } catch {
            return .failure(ImagePipelineError(error, url: request.url))
        }
    }
}
