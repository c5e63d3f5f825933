import Foundation
import PixpipeHTTP
import PixpipeImage

/// The bookkeeping of an ``ImagePipeline``: which tasks wait for which decode, which decodes for which
/// download, and the two queues. A value type whose events are `mutating` methods that do no I/O and call
/// no other code: each records what must happen next in ``CoordinatorEffects``, which
/// ``ImagePipelineCoordinator`` carries out once its lock is released.
///
/// Sharing: one ``DecodeJob`` per ``ImageCacheKey`` (URL and processing) and one ``OriginalFetchJob`` per URL.
/// A job lives while someone wants it: the last task leaving a decode removes it, and the last decode
/// leaving a download removes it and cancels its transfer. A job's priority is the highest of those who
/// want it, so raising one task's priority moves its shared download ahead too.
struct PipelineState: Sendable {
    /// A task waiting for a decode.
    struct Caller: Sendable {
        let task: ImageTask
        let key: ImageCacheKey
    }

    var callers: [UInt64: Caller] = [:]
    var decodes: [ImageCacheKey: DecodeJob] = [:]
    var downloads: [URL: OriginalFetchJob] = [:]
    var downloadQueue: JobQueue<URL>
    var decodeQueue: JobQueue<ImageCacheKey>
    private var nextGeneration: UInt64 = 0

    init(downloadWidth: Int, decodeWidth: Int) {
        downloadQueue = JobQueue(width: downloadWidth)
        decodeQueue = JobQueue(width: decodeWidth)
    }

    /// Adds `task` to the decode of `key`, creating the decode (and the download) when none runs; a task
    /// whose image `cached` finds (looked up here, under the lock, so that a decode ending meanwhile is
    /// either joined or found in the cache) finishes at once. `true` for such a hit. With `looksUpProcessed`,
    /// a new decode with processing first looks for its stored output in the disk cache.
    mutating func add(
        _ task: ImageTask, key: ImageCacheKey, cached: () -> Image?, looksUpProcessed: Bool,
        effects: inout CoordinatorEffects
    ) -> Bool {
        let priority = task.request.priority
        if decodes[key] != nil {
            decodes[key]?.callers[task.id] = priority
            callers[task.id] = Caller(task: task, key: key)
            refreshDecode(key)
            return false
        }
        if let image = cached() {
            effects.finished.append((task, .success(ImageResponse(image: image, source: .memoryCache))))
            return true
        }
        nextGeneration += 1
        let lookingUp = looksUpProcessed && !task.request.processing.isEmpty
        decodes[key] = DecodeJob(
            generation: nextGeneration, request: task.request, callers: [task.id: priority],
            phase: lookingUp ? .lookingUp : .awaitingData)
        callers[task.id] = Caller(task: task, key: key)
        if lookingUp {
            effects.lookups.append((key, nextGeneration))
        } else {
            attachToDownload(key, priority: priority)
        }
        startReady(&effects)
        return false
    }

    /// The look for a stored processed output of `key` (number `generation`) ended: a found one queues for
    /// decoding, else the decode waits for the original like any other.
    mutating func lookupEnded(
        _ key: ImageCacheKey, generation: UInt64, found: DecodeSource?, effects: inout CoordinatorEffects
    ) {
        guard var job = decodes[key], job.generation == generation, case .lookingUp = job.phase else { return }
        if let found {
            job.phase = .queued(found)
            decodes[key] = job
            decodeQueue.enqueue(key, priority: job.priority)
        } else {
            job.phase = .awaitingData
            decodes[key] = job
            attachToDownload(key, priority: job.priority)
        }
        startReady(&effects)
    }

    /// Puts the decode of `key` on the download of its URL, starting one when none runs.
    private mutating func attachToDownload(_ key: ImageCacheKey, priority: ImageRequest.Priority) {
        if downloads[key.url] != nil {
            downloads[key.url]?.decodes.insert(key)
            refreshDownload(key.url)
        } else {
            nextGeneration += 1
            downloads[key.url] = OriginalFetchJob(generation: nextGeneration, decodes: [key], phase: .queued)
            downloadQueue.enqueue(key.url, priority: priority)
        }
    }

    /// Cancels the task numbered `id`: it finishes as cancelled, and gives up its decode (and that decode
    /// its download) when nobody else wants them.
    mutating func cancel(_ id: UInt64, effects: inout CoordinatorEffects) {
        guard let caller = callers.removeValue(forKey: id) else { return }
        effects.finished.append((caller.task, .failure(.cancelled(url: caller.key.url))))
        let key = caller.key
        guard var job = decodes[key] else { return }
        job.callers[id] = nil
        guard job.callers.isEmpty else {
            decodes[key] = job
            refreshDecode(key)
            return
        }
        decodes[key] = nil
        switch job.phase {
        case .awaitingData: detach(key, effects: &effects)
        case .queued: decodeQueue.remove(key)
        // The look-up's result finds no job and is dropped.
        case .lookingUp: break
        // A decode cannot be stopped midway; it ends, fills the memory cache and finishes nobody.
        case .running: break
        }
    }

    /// Moves the task numbered `id` to `priority`, and its decode and download with it.
    mutating func setPriority(of id: UInt64, to priority: ImageRequest.Priority) {
        guard let key = callers[id]?.key, decodes[key] != nil else { return }
        decodes[key]?.callers[id] = priority
        refreshDecode(key)
    }

    /// The download of `url` (number `generation`) ended: its decodes queue with the bytes, or their tasks
    /// fail with the error. A download whose job was cancelled meanwhile only frees its slot.
    mutating func downloadEnded(
        _ url: URL, generation: UInt64, result: Result<DecodeSource, ImageLoadError>,
        effects: inout CoordinatorEffects
    ) {
        downloadQueue.finish()
        defer { startReady(&effects) }
        guard let download = downloads[url], download.generation == generation else { return }
        downloads[url] = nil
        for key in download.decodes {
            guard var job = decodes[key] else { continue }
            switch result {
            case .success(let source):
                job.phase = .queued(source)
                decodes[key] = job
                decodeQueue.enqueue(key, priority: job.priority)
            case .failure(let error):
                decodes[key] = nil
                finishCallers(of: job, with: .failure(error), effects: &effects)
            }
        }
    }

    /// The decode of `key` (number `generation`) ended: its tasks finish with the result.
    mutating func decodeEnded(
        _ key: ImageCacheKey, generation: UInt64, result: Result<ImageResponse, ImageLoadError>,
        effects: inout CoordinatorEffects
    ) {
        decodeQueue.finish()
        defer { startReady(&effects) }
        guard let job = decodes[key], job.generation == generation else { return }
        decodes[key] = nil
        finishCallers(of: job, with: result, effects: &effects)
    }

    /// Records the task of a started download, `false` when the job was cancelled (or replaced) before it.
    mutating func recordTransfer(_ task: Task<Void, Never>, for url: URL, generation: UInt64) -> Bool {
        guard downloads[url]?.generation == generation else { return false }
        downloads[url]?.phase = .running(task)
        return true
    }

    /// The progress handlers of the tasks sharing the download of `url` (number `generation`).
    func progressHandlers(for url: URL, generation: UInt64) -> [@Sendable (TransferProgress) -> Void] {
        guard let download = downloads[url], download.generation == generation else { return [] }
        var handlers: [@Sendable (TransferProgress) -> Void] = []
        for key in download.decodes {
            guard let job = decodes[key] else { continue }
            for id in job.callers.keys {
                if let handler = callers[id]?.task.request.onProgress { handlers.append(handler) }
            }
        }
        return handlers
    }

    /// The preview handlers of every caller waiting for the download of `url` at `generation`.
    func previewHandlers(for url: URL, generation: UInt64) -> [@Sendable (Image) -> Void] {
        guard let download = downloads[url], download.generation == generation else { return [] }
        var handlers: [@Sendable (Image) -> Void] = []
        for key in download.decodes {
            guard let job = decodes[key] else { continue }
            for id in job.callers.keys {
                if let handler = callers[id]?.task.request.onPreview { handlers.append(handler) }
            }
        }
        return handlers
    }

    private mutating func finishCallers(
        of job: DecodeJob, with result: Result<ImageResponse, ImageLoadError>, effects: inout CoordinatorEffects
    ) {
        for id in job.callers.keys {
            if let caller = callers.removeValue(forKey: id) { effects.finished.append((caller.task, result)) }
        }
    }

    /// Takes the decode of `key` off its download, which is cancelled when no decode is left on it.
    private mutating func detach(_ key: ImageCacheKey, effects: inout CoordinatorEffects) {
        guard var download = downloads[key.url] else { return }
        download.decodes.remove(key)
        guard download.decodes.isEmpty else {
            downloads[key.url] = download
            refreshDownload(key.url)
            return
        }
        downloads[key.url] = nil
        switch download.phase {
        case .queued: downloadQueue.remove(key.url)
        // `nil`: not recorded yet; the starter finds the job gone and cancels the task itself.
        case .running(let task): if let task { effects.cancelledTransfers.append(task) }
        }
    }

    private mutating func refreshDecode(_ key: ImageCacheKey) {
        guard let job = decodes[key] else { return }
        switch job.phase {
        case .queued: decodeQueue.setPriority(key, to: job.priority)
        case .awaitingData: refreshDownload(key.url)
        case .running, .lookingUp: break
        }
    }

    private mutating func refreshDownload(_ url: URL) {
        guard let download = downloads[url], case .queued = download.phase else { return }
        let priority = download.decodes.compactMap { decodes[$0]?.priority }.max() ?? .veryLow
        downloadQueue.setPriority(url, to: priority)
    }

    /// Starts what fits under the queues' widths, most urgent first.
    private mutating func startReady(_ effects: inout CoordinatorEffects) {
        for url in downloadQueue.startable() {
            guard let generation = downloads[url]?.generation else {
                downloadQueue.finish()
                continue
            }
            downloads[url]?.phase = .running(nil)
            effects.downloads.append((url, generation))
        }
        for key in decodeQueue.startable() {
            guard var job = decodes[key], case .queued(let source) = job.phase else {
                decodeQueue.finish()
                continue
            }
            job.phase = .running
            decodes[key] = job
            effects.decodes.append(.init(key: key, generation: job.generation, request: job.request, source: source))
        }
    }
}
