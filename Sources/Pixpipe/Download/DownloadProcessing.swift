import Foundation

/// What to do with each verified image before it is written.
///
/// ```swift
/// options.processing = .convert(.png)
/// options.processing = .thumbnail(ThumbnailOptions(size: .box(256)), .jpeg(quality: 85))
/// ```
public enum DownloadProcessing: Sendable, Hashable {
    /// Store the original bytes (after verifying them by decoding).
    case none
    /// Decode and re-encode with `encoding`.
    case convert(ImageEncoding)
    /// Make a thumbnail with `options` and encode it with `encoding`.
    case thumbnail(ThumbnailOptions, ImageEncoding)

    /// The format written when processing, or `nil` when the original is stored as it came.
    var outputFormat: ImageFormat? {
        switch self {
        case .none: nil
        case .convert(let encoding), .thumbnail(_, let encoding): encoding.format
        }
    }
}
