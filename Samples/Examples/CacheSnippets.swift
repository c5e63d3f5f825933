// The README's cache example, compiled here so that it cannot rot (beside ReadmeSnippets.swift, in a file
// of its own until the pipeline replaces it).
import Foundation
import Pixpipe

/// README: "Caches (foundation of ImagePipeline)": the bytes of `response` stored and judged by HTTP's rules.
func cacheSnippet(url: URL, thumbnail: Image, response: Response<Data>, sent: Date, received: Date) throws -> Data? {
    let images = ImageCache()  // decoded images, LRU by bytes of pixels
    let key = ImageCacheKey(url: url, processing: .thumbnail(ThumbnailOptions(size: .box(256))))
    images[key] = thumbnail

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
