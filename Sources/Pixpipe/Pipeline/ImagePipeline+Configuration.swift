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
        /// Whether a stale disk-cache entry serves when its revalidation fails because the origin cannot be
        /// reached (a transport failure or a timeout: ``HTTPError/isOriginUnreachable``), as RFC 9111 4.2.4
        /// allows a disconnected cache. Default: `true`. Never for an entry with `must-revalidate` or
        /// `no-cache`, nor after an answer such as a `5xx` (no `stale-if-error`); the entry stays stale, so
        /// the next load asks the origin again. Counted in ``Statistics/staleServed``.
        public var servesStaleOnError: Bool
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
            processedImageEncoding: ImageEncoding? = nil, servesStaleOnError: Bool = true
        ) {
            self.client = client
            self.imageCache = imageCache
            self.dataCache = dataCache
            self.cachePolicy = cachePolicy
            self.decodeOptions = decodeOptions
            self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
            self.maxConcurrentDecodes = max(1, maxConcurrentDecodes)
            self.processedImageEncoding = processedImageEncoding
            self.servesStaleOnError = servesStaleOnError
        }
    }

    /// Counters of what a pipeline has done since it was made: what its loads cost.
    ///
    /// ```swift
    /// let statistics = pipeline.statistics
    /// print(statistics.diskHits, statistics.notModified, statistics.networkRequests - statistics.notModified)
    /// ```
    public struct Statistics: Sendable, Hashable {
        /// Requests answered from the memory cache (by `image(for:)`, a task or a prefetch).
        public var memoryHits = 0
        /// Downloads answered by a fresh disk-cache entry, with no request.
        public var diskHits = 0
        /// Processed outputs found fresh in the disk cache (no download, no processing).
        public var processedDiskHits = 0
        /// Requests sent (unconditional and conditional, failed ones included; retries are the client's).
        public var networkRequests = 0
        /// Conditional requests answered `304 Not Modified`.
        public var notModified = 0
        /// Downloads answered by a stale disk-cache entry because the origin could not be reached
        /// (``Configuration/servesStaleOnError``); their failed request is also in ``networkRequests``.
        public var staleServed = 0
        /// Decodes run (each with its processing).
        public var decodes = 0
        /// Transfers cancelled because no caller wanted them any more.
        public var cancelledTransfers = 0

        /// All zero.
        public init() {}
    }
}
