import Foundation
import PixpipeLocking

/// Warms a pipeline's caches ahead of need, at low priority, and stops when asked.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: pipeline)
/// prefetcher.startPrefetching(with: upcomingURLs)       // decoded into the memory cache (and the disk)
/// prefetcher.stopPrefetching(with: urlsScrolledPast)    // their downloads stop unless someone else waits
/// prefetcher.stopAll()
/// ```
///
/// Each request is loaded like any other (shared with callers that ask for the same image meanwhile), at
/// the prefetcher's priority, so anything a caller waits for goes first. A request already in the memory
/// cache or already being prefetched is skipped.
public final class ImagePrefetcher: Sendable {
    /// The pipeline whose caches are warmed.
    public let pipeline: ImagePipeline
    /// The priority of every prefetch: ``ImageRequest/Priority/low`` by default.
    public let priority: ImageRequest.Priority
    private let didComplete: (@Sendable () -> Void)?
    private let tasks = Locked<[ImageCacheKey: ImageTask]>([:])

    /// A prefetcher for `pipeline` at `priority`; `didComplete` is called (on an arbitrary thread) each time
    /// the last pending prefetch ends, whether loaded, failed or stopped.
    public init(
        pipeline: ImagePipeline, priority: ImageRequest.Priority = .low, didComplete: (@Sendable () -> Void)? = nil
    ) {
        self.pipeline = pipeline
        self.priority = priority
        self.didComplete = didComplete
    }

    /// Stops what is still pending: nobody can stop it later.
    deinit {
        stopAll()
    }

    /// Starts loading the decoded images of `urls`.
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Starts loading `requests` (their own priority is replaced by the prefetcher's).
    public func startPrefetching(with requests: [ImageRequest]) {
        for var request in requests {
            request.priority = priority
            let key = request.cacheKey
            guard pipeline.cachedImage(for: request) == nil else { continue }
            let task = tasks.withLock { tasks -> ImageTask? in
                guard tasks[key] == nil else { return nil }
                let task = pipeline.imageTask(with: request)
                tasks[key] = task
                return task
            }
            task?.onFinish(queue: nil) { [weak self] _ in self?.finished(key, task: task) }
        }
    }

    /// Stops prefetching the decoded images of `urls`.
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching `requests` (matched by URL and processing).
    public func stopPrefetching(with requests: [ImageRequest]) {
        let stopped = tasks.withLock { tasks in requests.compactMap { tasks[$0.cacheKey] } }
        for task in stopped { task.cancel() }
    }

    /// Stops every pending prefetch.
    public func stopAll() {
        let stopped = tasks.withLock { Array($0.values) }
        for task in stopped { task.cancel() }
    }

    /// How many prefetches are pending.
    public var pendingCount: Int { tasks.withLock { $0.count } }

    private func finished(_ key: ImageCacheKey, task: ImageTask?) {
        let idle = tasks.withLock { tasks -> Bool in
            guard let task, tasks[key] === task else { return false }
            tasks[key] = nil
            return tasks.isEmpty
        }
        if idle { didComplete?() }
    }
}
