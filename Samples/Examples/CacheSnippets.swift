// The README's image pipeline and cache examples, compiled here so that they cannot rot.
import Foundation
import Pixpipe

/// README: "Image pipeline": a pipeline with a disk cache, asked for an image, a thumbnail, a cached image,
/// an image with its source, with a completion handler, and a prefetcher.
func pipelineSnippet(url: URL, upcoming: [URL]) async throws -> ImagePrefetcher {
    let pipeline = ImagePipeline(
        configuration: .init(dataCache: try DataCache(directory: URL(fileURLWithPath: "cache"), sizeLimit: 500 << 20)))
    let image = try await pipeline.image(for: url)  // memory, else disk (by HTTP's rules), else network
    let thumbnail = try await pipeline.image(
        for: ImageRequest(url: url, processing: [.thumbnail(ThumbnailOptions(size: .box(256)))], priority: .high))
    if let hit = pipeline.cachedImage(for: url) { print(hit.width) }  // memory only, never waits
    let response = try await pipeline.imageResponse(for: ImageRequest(url: url))
    print(response.source, pipeline.statistics.networkRequests)  // .memoryCache ... .staleOnError; counters
    let task = pipeline.loadImage(with: ImageRequest(url: url)) { result in print(result) }
    task.cancel()  // this caller's share only: the download goes on while others want it
    let prefetcher = ImagePrefetcher(pipeline: pipeline)  // low priority; stops when released
    prefetcher.startPrefetching(with: upcoming)
    print(image.width, thumbnail.width)
    return prefetcher
}

/// README: "Image pipeline", progressive previews: each completed scan of a progressive JPEG, then the image.
func previewSnippet(pipeline: ImagePipeline, url: URL) async throws {
    for try await event in pipeline.images(for: ImageRequest(url: url)) {
        switch event {
        case .preview(let preview): print("preview", preview.width)  // reduced size, unprocessed
        case .final(let image): print("final", image.width)
        }
    }
}

/// README: "Image pipeline", the caches alone: the bytes of `response` stored and judged by HTTP's rules.
func cacheSnippet(url: URL, thumbnail: Image, response: Response<Data>, sent: Date, received: Date) throws -> Data? {
    let images = ImageCache()  // decoded images, LRU by bytes of pixels
    images[ImageCacheKey(url: url, processing: .thumbnail(ThumbnailOptions(size: .box(256))))] = thumbnail

    let disk = try DataCache(directory: URL(fileURLWithPath: "cache"), sizeLimit: 500 << 20)
    let metadata = HTTPCacheMetadata(response: response.metadata, requestTime: sent, responseTime: received)
    if HTTPCachePolicy.http.mayStore(metadata) {
        try disk.store(response.value, metadata: metadata, for: url.absoluteString)
    }
    if let entry = disk.entry(for: url.absoluteString), let stored = entry.metadata {
        switch HTTPCachePolicy.http.use(stored, now: Date()) {
        case .fresh: return entry.data
        case .revalidate(let conditional): print("ask with", conditional)  // a 304: disk.updateMetadata(...)
        case .refetch: print("fetch again")
        }
    }
    return nil
}
