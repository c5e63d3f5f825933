import Foundation
import PixpipeHTTP
import PixpipeImage

extension ImagePipeline {
    /// What a pipeline loads with, where it caches, and how much it does at once.
    ///
    /// ```swift
    /// var configuration = ImagePipeline.Configuration(
    ///     dataCache: try DataCache(directory: URL(fileURLWithPath: "cache"), sizeLimit: 500 << 20))
    /// configuration.decodeOptions.pixelLimit = 50_000_000
    /// configuration.maxConcurrentDecodes = 2
    /// ```
    public struct Configuration: Sendable {
        /// Sends the requests (its timeouts, retries, body cap and connection limits apply).
        public var client: HTTPClient
        /// The memory cache of decoded and processed images; `nil` for none.
        public var imageCache: ImageCache?
        /// The disk cache of original bytes; `nil` (the default) for none.
        public var dataCache: DataCache?
        /// How HTTP's caching headers decide what the disk cache stores and reuses: `.http` (RFC 9111) by default.
        public var cachePolicy: HTTPCachePolicy
        /// The limits and strictness of decoding (pixel limit, input size, ...).
        public var decodeOptions: DecodeOptions
        /// The most downloads at once; more wait in the queue by priority. Default: 6.
        public var maxConcurrentDownloads: Int
        /// The most decodes (with their processing) at once; more wait in the queue by priority. Default:
        /// the number of active processors.
        public var maxConcurrentDecodes: Int
        /// How processed outputs (thumbnails, resizes) are also kept in the disk cache, keyed by URL and
        /// processing: `.png` keeps their pixels exactly, `.jpeg(quality: 85)` takes less room. `nil` (the
        /// default) keeps only original bytes. A stored output is used while its original's HTTP freshness
        /// lasts, with no download and no processing, only a decode of the small output; once stale, the
        /// original is revalidated and the output made and stored again.
        public var processedImageEncoding: ImageEncoding?
        /// Body bytes between two attempts at a progressive-JPEG preview (``ImageRequest/onPreview``);
        /// an attempt decodes only when a scan completed. Default: 16 KiB.
        public var previewByteInterval = 16 << 10
        /// Previews are decoded at the smallest DCT scale whose longer side is at least this; `nil` decodes
        /// them at full size. Default: 512.
        public var previewMaxPixelSize: Int? = 512

        /// A configuration from its parts; every argument has the documented default (a new ``ImageCache``
        /// with the default limits, no disk cache).
        public init(
            client: HTTPClient = .shared, imageCache: ImageCache? = ImageCache(), dataCache: DataCache? = nil,
            cachePolicy: HTTPCachePolicy = .http, decodeOptions: DecodeOptions = DecodeOptions(),
            maxConcurrentDownloads: Int = 6, maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
            processedImageEncoding: ImageEncoding? = nil
        ) {
            self.client = client
            self.imageCache = imageCache
            self.dataCache = dataCache
            self.cachePolicy = cachePolicy
            self.decodeOptions = decodeOptions
            self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
            self.maxConcurrentDecodes = max(1, maxConcurrentDecodes)
            self.processedImageEncoding = processedImageEncoding
        }
    }

    /// Counters of what a pipeline did, for tests and the benchmarks.
    package struct Statistics: Sendable, Hashable {
        /// Requests answered from the memory cache (by `image(for:)`, a task or a prefetch).
        package var memoryHits = 0
        /// Downloads answered by a fresh disk-cache entry, with no request.
        package var diskHits = 0
        /// Processed outputs found fresh in the disk cache (no download, no processing).
        package var processedDiskHits = 0
        /// Requests sent (unconditional and conditional).
        package var networkRequests = 0
        /// Conditional requests answered `304 Not Modified`.
        package var notModified = 0
        /// Decodes run (each with its processing).
        package var decodes = 0
        /// Transfers cancelled because no caller wanted them any more.
        package var cancelledTransfers = 0

        /// All zero.
        package init() {}
    }
}
