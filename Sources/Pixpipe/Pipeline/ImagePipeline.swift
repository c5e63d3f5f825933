import Dispatch
import Foundation
import PixpipeHTTP
import PixpipeImage

/// Loads images by URL through a memory cache, a disk cache with HTTP semantics, and the network, doing
/// each download and each decode once however many callers ask at once.
///
/// ```swift
/// let avatar = try await ImagePipeline.shared.image(for: url)   // memory and disk caches, set up for you
/// let pipeline = ImagePipeline(
///     configuration: .init(dataCache: try DataCache(directory: URL(fileURLWithPath: "cache"))))
/// let image = try await pipeline.image(for: url)
/// let thumbnail = try await pipeline.image(
///     for: ImageRequest(url: url, processing: [.thumbnail(ThumbnailOptions(size: .box(256)))], priority: .high))
/// ```
///
/// A request is looked up in the memory cache (``ImageCache``, keyed by URL and processing); on a miss its
/// original bytes come from the disk cache (``DataCache``) while fresh, after a conditional request when
/// stale (a `304` reuses the stored bytes), or from the network, and are decoded and processed. Concurrent
/// requests for one URL make one download; those with the same processing also share one decode. Both
/// stages wait in bounded queues, most urgent ``ImageRequest/Priority`` first; a task's priority can change
/// while it waits. Cancelling one caller gives up its share; the download stops when no caller is left.
/// When the origin cannot be reached, a stale entry serves unless sent with `must-revalidate` or
/// `no-cache` (``Configuration/servesStaleOnError``); ``imageResponse(for:)`` says where an image came from.
/// A `file:` URL is read from the disk instead, with no request and no disk-cache entry, and then decoded,
/// processed and kept in the memory cache like any other (``ImageResponse/Source/localFile``).
public final class ImagePipeline: Sendable {
    /// The settings the pipeline was made with.
    public let configuration: Configuration
    let coordinator: ImagePipelineCoordinator

    /// A pipeline with `configuration` (by default: the shared client, a memory cache, no disk cache).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        coordinator = ImagePipelineCoordinator(configuration: configuration)
    }

    /// The decoded image at `url`.
    public func image(for url: URL) async throws(ImageLoadError) -> Image {
        try await image(for: ImageRequest(url: url))
    }

    /// The image `request` describes. Cancelling the calling task cancels the request's share of the work
    /// and throws ``ImageLoadError/cancelled(url:)``.
    public func image(for request: ImageRequest) async throws(ImageLoadError) -> Image {
        try await imageResponse(for: request).image
    }

    /// The image `request` describes, with where it came from (memory, disk, a revalidation, the network, or
    /// a stale entry while the origin is down); cancelled as `image(for:)` is.
    public func imageResponse(for request: ImageRequest) async throws(ImageLoadError) -> ImageResponse {
        if let image = memoryHit(for: request) { return ImageResponse(image: image, source: .memoryCache) }
        let task = startTask(request)
        let result = await withTaskCancellationHandler {
            await task.responseResult
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    /// Starts loading `request` and returns its task, to await, reprioritise or cancel.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        if let image = memoryHit(for: request) {
            return ImageTask(
                request: request, id: coordinator.makeTaskID(),
                result: .success(ImageResponse(image: image, source: .memoryCache)))
        }
        return startTask(request)
    }

    /// Loads `request` and calls `completion` once with the outcome, on `queue` or else on a global queue
    /// (never before this returns). Cancelling the returned task delivers ``ImageLoadError/cancelled(url:)``.
    @discardableResult
    public func loadImage(
        with request: ImageRequest, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Image, ImageLoadError>) -> Void
    ) -> ImageTask {
        let task = imageTask(with: request)
        task.onFinish(queue: queue, completion)
        return task
    }

    /// The image of `request` if the memory cache holds it, without waiting or any I/O.
    public func cachedImage(for request: ImageRequest) -> Image? {
        configuration.imageCache?.image(for: request.cacheKey)
    }

    /// The decoded image of `url` (no processing) if the memory cache holds it.
    public func cachedImage(for url: URL) -> Image? {
        configuration.imageCache?.image(for: ImageCacheKey(url: url))
    }

    /// What the pipeline has done so far: memory and disk hits, requests, revalidations, decodes.
    public var statistics: Statistics {
        coordinator.statistics.withLock { $0 }
    }

    /// How many tasks wait for an image now (for tests).
    package var pendingTaskCount: Int {
        coordinator.pendingTaskCount
    }

    private func memoryHit(for request: ImageRequest) -> Image? {
        guard let image = cachedImage(for: request) else { return nil }
        coordinator.statistics.withLock { $0.memoryHits += 1 }
        return image
    }

    private func startTask(_ request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request, id: coordinator.makeTaskID(), coordinator: coordinator)
        coordinator.register(task)
        return task
    }
}

extension ImagePipeline {
    /// The pipeline to use when one will do: the shared HTTP client, a memory cache with the default limits,
    /// and a 256 MiB disk cache in the user's cache folder (``DataCache/defaultDirectory``).
    ///
    /// ```swift
    /// let image = try await ImagePipeline.shared.image(for: URL(string: "https://example.com/cat.jpg")!)
    /// let icon = try await ImagePipeline.shared.image(for: URL(fileURLWithPath: "icon.png"))
    /// ```
    ///
    /// Made on first use, as is its cache folder (with its parents, owner-only); nothing is created by a
    /// program that never asks for it. When the folder cannot be made (no home folder, a read-only disk),
    /// the pipeline keeps working with its memory cache only: its ``configuration``'s `dataCache` is `nil`.
    /// Programs that want other limits make their own ``ImagePipeline`` with a ``Configuration``.
    public static let shared = ImagePipeline(
        configuration: Configuration(
            dataCache: DataCache.defaultDirectory.flatMap { try? DataCache.openCreatingParents($0) }))
}

/// One element of ``ImagePipeline/images(for:)``: a preview while the bytes arrive, or the final image.
public enum ImageLoadEvent: Sendable {
    /// A progressive JPEG decoded as far as it has arrived (reduced size, without the processing).
    case preview(Image)
    /// The request's image, processed and cached as ``ImagePipeline/image(for:)`` returns it.
    case final(Image)
}

extension ImagePipeline {
    /// Previews of `request`'s progressive JPEG while it downloads, then its final image.
    ///
    /// ```swift
    /// for try await event in pipeline.images(for: ImageRequest(url: photoURL)) {
    ///     if case .preview(let preview) = event { show(preview) }
    ///     if case .final(let image) = event { show(image) }
    /// }
    /// ```
    ///
    /// The stream ends after ``ImageLoadEvent/final(_:)``, or throws the ``ImageLoadError``; a memory
    /// hit, a disk hit, a baseline JPEG or another format give the final image only. Ending the iteration
    /// early cancels the request's share of the work. Previews are never cached; see
    /// ``ImageRequest/onPreview`` for their size and for coalesced callers.
    public func images(for request: ImageRequest) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ImageLoadEvent.self)
        var request = request
        let earlier = request.onPreview
        request.onPreview = { preview in
            earlier?(preview)
            continuation.yield(.preview(preview))
        }
        let task = imageTask(with: request)
        task.onFinish(queue: nil) { result in
            switch result {
            case .success(let image):
                continuation.yield(.final(image))
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
