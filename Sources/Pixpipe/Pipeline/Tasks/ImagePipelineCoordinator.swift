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
    /// Bytes between two preview attempts.
    private let previewByteInterval: Int
    /// The longer side previews are decoded at, at least.
    private let previewMaxPixelSize: Int?
    private let cachePolicy: HTTPCachePolicy
    /// How processed outputs are stored on the disk; `nil` when they are not (or there is no disk cache).
    private let processedEncoding: ImageEncoding?
    /// What the pipeline did, counted.
    let statistics: Locked<ImagePipeline.Statistics>

    init(configuration: ImagePipeline.Configuration) {
        state = Locked(
            PipelineState(
                downloadWidth: configuration.maxConcurrentDownloads, decodeWidth: configuration.maxConcurrentDecodes))
        imageCache = configuration.imageCache
        dataCache = configuration.dataCache
        decodeOptions = configuration.decodeOptions
        previewByteInterval = configuration.previewByteInterval
        previewMaxPixelSize = configuration.previewMaxPixelSize
        cachePolicy = configuration.cachePolicy
        processedEncoding =
            configuration.dataCache != nil && configuration.cachePolicy != .never
            ? configuration.processedImageEncoding : nil
        let statistics = Locked(ImagePipeline.Statistics())
        self.statistics = statistics
        loader = OriginalDataLoader(
            client: configuration.client, dataCache: configuration.dataCache, policy: configuration.cachePolicy,
            servesStaleOnError: configuration.servesStaleOnError, statistics: statistics,
            fileByteLimit: [configuration.decodeOptions.byteLimit, configuration.client.configuration.maxBodyBytes]
                .compactMap { $0 }.min())
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
            let hit = state.add(
                task, key: key, cached: { imageCache?.image(for: key) },
                // A local file's outputs are not kept on the disk: the file is there to make them again.
                looksUpProcessed: processedEncoding != nil && !key.url.isFileURL,
                effects: &effects)
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
        for (key, generation) in effects.lookups { startLookup(key, generation: generation) }
        for (url, generation) in effects.downloads { startDownload(url, generation: generation) }
        for start in effects.decodes { startDecode(start) }
    }

    private func startDownload(_ url: URL, generation: UInt64) {
        let loader = self.loader
        let observer = makePreviewObserver(url, generation: generation)
        let transfer = Task {
            let result = await loader.load(url, observer: observer) { progress in
                self.reportProgress(progress, url: url, generation: generation)
            }
            // Every preview is delivered before the final decode can start.
            await observer?.close()
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

    /// An observer making previews for the download, when a caller waiting for it asked for them.
    private func makePreviewObserver(_ url: URL, generation: UInt64) -> ProgressivePreviewObserver? {
        guard !state.withLock({ $0.previewHandlers(for: url, generation: generation) }).isEmpty else { return nil }
        let options = decodeOptions
        let maxPixelSize = previewMaxPixelSize
        return ProgressivePreviewObserver(byteInterval: previewByteInterval) {
            ProgressiveJPEGPreviewDecoder(options: options, maxPixelSize: maxPixelSize)
        } deliver: { preview in
            let handlers = self.state.withLock { $0.previewHandlers(for: url, generation: generation) }
            for handler in handlers { handler(preview) }
        }
    }

    private func reportProgress(_ progress: TransferProgress, url: URL, generation: UInt64) {
        let handlers = state.withLock { $0.progressHandlers(for: url, generation: generation) }
        for handler in handlers { handler(progress) }
    }

    /// Looks for a fresh processed output of `key` in the disk cache, off the caller's thread.
    private func startLookup(_ key: ImageCacheKey, generation: UInt64) {
        Task {
            var found: DecodeSource?
            if let entry = self.dataCache?.entry(for: Self.processedKey(key)) {
                // Fresh by its original's metadata; a stale one is remade from the revalidated original.
                let use = entry.metadata.map { self.cachePolicy.use($0, now: Date()) } ?? .fresh
                if use == .fresh {
                    found = DecodeSource(
                        data: entry.data, metadata: entry.metadata, isProcessed: true, origin: .diskCache)
                    self.statistics.withLock { $0.processedDiskHits += 1 }
                }
            }
            let effects = self.state.withLock { state in
                var effects = CoordinatorEffects()
                state.lookupEnded(key, generation: generation, found: found, effects: &effects)
                return effects
            }
            self.perform(effects)
        }
    }

    private func startDecode(_ start: CoordinatorEffects.DecodeStart) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.statistics.withLock { $0.decodes += 1 }
            let result = Self.decode(start.source, request: start.request, options: self.decodeOptions)
            switch result {
            case .success(let image):
                // Stored before the job ends, so that a task arriving meanwhile either joins the job or hits.
                self.imageCache?.store(image, for: start.key)
                if !start.source.isProcessed, start.source.origin != .localFile, !start.request.processing.isEmpty {
                    self.storeProcessed(image, start)
                }
            case .failure(let error):
                // Bytes that are not a whole image are not served again from the disk.
                if error.condemnsBytes, start.source.origin != .localFile {
                    self.dataCache?.removeEntry(
                        for: start.source.isProcessed ? Self.processedKey(start.key) : start.key.url.absoluteString)
                }
            }
            let effects = self.state.withLock { state in
                var effects = CoordinatorEffects()
                state.decodeEnded(
                    start.key, generation: start.generation,
                    result: result.map { ImageResponse(image: $0, source: start.source.origin) }, effects: &effects)
                return effects
            }
            self.perform(effects)
        }
    }

    /// Keeps a processed output on the disk with its original's metadata, when the configuration asks and
    /// the policy lets the original be stored.
    private func storeProcessed(_ image: Image, _ start: CoordinatorEffects.DecodeStart) {
        guard let processedEncoding, let dataCache,
            start.source.metadata.map({ cachePolicy.mayStore($0) }) ?? true,
            let encoded = try? image.encoded(as: processedEncoding)
        else { return }
        // A cache may lose entries: a failed write costs a later decode, not this image.
        try? dataCache.store(
            DataCacheEntry(data: encoded, metadata: start.source.metadata), for: Self.processedKey(start.key))
    }

    /// The disk-cache key of a processed output: `processed ` and the memory key's description (a space,
    /// which no URL's absolute string holds, keeps it apart from every original's key).
    static func processedKey(_ key: ImageCacheKey) -> String {
        "processed " + key.description
    }

    /// The image of `source` after the request's processing (the first step may decode at a reduced size);
    /// a stored processed output is only decoded.
    static func decode(_ source: DecodeSource, request: ImageRequest, options: DecodeOptions) -> Result<
        Image, ImageLoadError
    > {
        do {
            let processing = source.isProcessed ? [] : request.processing
            return .success(try ImageProcessors.Composition(processing).process(data: source.data, options: options))
        } catch {
            return .failure(ImageLoadError(error, url: request.url))
        }
    }
}
