import Foundation
import PixpipeImage

/// What names an image in ``ImageCache``: the URL it came from and the processing that made its pixels.
///
/// ```swift
/// let key = ImageCacheKey(url: url, processing: .thumbnail(ThumbnailOptions(size: .box(256))))
/// ```
///
/// The processing enters through its ``ImageProcessing/identifier``, which names every parameter that
/// changes pixels, so one URL at three thumbnail sizes is three keys, and two equal processings share one.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The URL of the original bytes.
    public var url: URL
    /// The identifier of the processing applied (empty for the image as decoded).
    public var processingIdentifier: String

    /// The key of `url` decoded with no processing.
    public init(url: URL) {
        self.init(url: url, processingIdentifier: "")
    }

    /// The key of `url` after `processing`.
    public init(url: URL, processing: any ImageProcessing) {
        self.init(url: url, processingIdentifier: processing.identifier)
    }

    /// The key of `url` after `processors` run in order (their ``ImageProcessors/Composition``).
    public init(url: URL, processors: [any ImageProcessing]) {
        self.init(url: url, processingIdentifier: ImageProcessors.Composition(processors).identifier)
    }

    /// The key from its parts.
    public init(url: URL, processingIdentifier: String) {
        self.url = url
        self.processingIdentifier = processingIdentifier
    }

    /// The URL, then `#` and the processing when there is one: a single string for a disk cache's key.
    public var description: String {
        processingIdentifier.isEmpty ? url.absoluteString : "\(url.absoluteString)#\(processingIdentifier)"
    }
}
