import PixpipeImage

/// An image an ``ImagePipeline`` delivered, with where it came from: what the load cost.
///
/// ```swift
/// let response = try await pipeline.imageResponse(for: ImageRequest(url: url))
/// if response.source == .staleOnError { print("offline: shown from the cache") }
/// ```
///
/// Callers that share one download or one decode see the same source: the shared job's.
public struct ImageResponse: Sendable, Hashable {
    /// Where an image came from, cheapest first.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The memory cache: no I/O, no decode.
        case memoryCache
        /// A fresh disk-cache entry (the original or a stored processed output): no request.
        case diskCache
        /// A local file (a `file:` URL), read from the disk: no request and no disk-cache entry.
        case localFile
        /// A stale disk-cache entry the origin confirmed with `304 Not Modified`.
        case revalidated
        /// A download.
        case network
        /// A stale disk-cache entry used because the origin could not be reached
        /// (``ImagePipeline/Configuration/servesStaleOnError``).
        case staleOnError
    }

    /// The decoded (and processed) image.
    public var image: Image
    /// Where it came from.
    public var source: Source

    /// A response from its parts.
    public init(image: Image, source: Source) {
        self.image = image
        self.source = source
    }
}
