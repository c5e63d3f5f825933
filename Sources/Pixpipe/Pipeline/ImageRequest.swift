import Foundation
import PixpipeHTTP
import PixpipeImage

/// What to load through an ``ImagePipeline``: a URL, the processing that makes the pixels, and how urgent it is.
///
/// ```swift
/// let request = ImageRequest(
///     url: avatarURL, processing: [.thumbnail(ThumbnailOptions(size: .box(256)))], priority: .high)
/// let thumbnail = try await pipeline.image(for: request)
/// ```
///
/// The processing is part of the request's identity: ``cacheKey`` is the URL with the processing's
/// identifier, so one URL at three sizes is three images in the memory cache (and three decodes), all made
/// from one download.
public struct ImageRequest: Sendable {
    /// How soon a request's download and decode run, when the pipeline's queues are full.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Work nobody waits for yet (the prefetcher's default is ``low``).
        case veryLow
        /// Work that may be wanted soon, such as prefetching.
        case low
        /// The default.
        case normal
        /// Work someone is waiting for.
        case high
        /// Work someone is waiting for first.
        case veryHigh

        /// Orders by urgency, ``veryLow`` first.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The URL of the original bytes: absolute, `http` or `https`, or `file` for a local file (read with no
    /// request and not kept in the disk cache; the decode options' input limit applies to it).
    public var url: URL
    /// The steps applied after decoding, in order; the first may start from the bytes (a reduced-size decode).
    public var processing: [any ImageProcessing]
    /// How soon the work runs; an ``ImageTask`` can change it while queued.
    public var priority: Priority
    /// Called as the original bytes arrive from the network (not for cache hits), on an arbitrary thread.
    public var onProgress: (@Sendable (TransferProgress) -> Void)?

    /// Opts in to previews of a progressive JPEG while it downloads: called with each one, in order and
    /// before the final image, on an arbitrary thread. See ``ImagePipeline/images(for:)``.
    ///
    /// Previews are decoded at a reduced DCT scale (``ImagePipeline/Configuration/previewMaxPixelSize``),
    /// without the request's processing, and never cached. Only a download started by a request that asked
    /// for previews makes them; every caller sharing it that asked receives them.
    public var onPreview: (@Sendable (Image) -> Void)?

    /// A request for `url` after `processing`, at `priority`.
    public init(
        url: URL, processing: [any ImageProcessing] = [], priority: Priority = .normal,
        onProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.url = url
        self.processing = processing
        self.priority = priority
        self.onProgress = onProgress
    }

    /// The key of the request's image in the memory cache: the URL and the processing's identifier.
    public var cacheKey: ImageCacheKey {
        ImageCacheKey(url: url, processors: processing)
    }
}
