/// Why processing an image failed: a thumbnail, a resize or crop, or a colour conversion, and the decode a
/// thumbnail or an ``ImageProcessing`` chain runs on encoded bytes.
///
/// ```swift
/// do { _ = try image.cropped(to: rect) } catch { print(error.shortName) }   // "empty-crop"
/// do { _ = try ImageProcessors.Resize(width: 0, height: 8).process(image) } catch .invalidSize {
///     print("no such size")
/// }
/// ```
public enum ImageProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoded bytes could not be decoded (or a decode would go over a limit).
    case decoding(ImageDecodingError)
    /// The crop rectangle does not overlap the image (or has no area).
    case emptyCrop(PixelRect, imageWidth: Int, imageHeight: Int)
    /// A requested output size is zero, negative, or too large to allocate.
    case invalidSize(width: Int, height: Int)
    /// The requested thumbnail size has a zero or negative side, or is too large to allocate.
    case invalidThumbnailSize(ThumbnailOptions.Size)
    /// The source has more pixels than ``ThumbnailOptions/sourcePixelLimit`` allows; refused from the header.
    case sourceTooLarge(width: Int, height: Int, limit: Int)
    /// An ICC profile could not be parsed; `reason` is Little CMS's message.
    case invalidColorProfile(reason: String)
    /// A valid profile this conversion cannot use: a colour space other than RGB or gray as a target, or a
    /// profile whose colour space does not match the image's channels (an RGB profile on a gray image).
    case unsupportedColorProfile(colorSpace: String, reason: String)
    /// Little CMS could not build the transform between the two profiles; `reason` is its message.
    case colorTransformFailed(reason: String)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .emptyCrop(let rect, let imageWidth, let imageHeight):
            "crop \(rect) does not overlap the \(imageWidth)x\(imageHeight) image"
        case .invalidSize(let width, let height): "invalid output size \(width)x\(height)"
        case .invalidThumbnailSize(let size): "invalid thumbnail size \(size)"
        case .sourceTooLarge(let width, let height, let limit):
            "image too large to thumbnail: \(width)x\(height) is over the source limit of \(limit) pixels"
        case .invalidColorProfile(let reason): "invalid ICC profile: \(reason)"
        case .unsupportedColorProfile(let colorSpace, let reason): "unsupported \(colorSpace) ICC profile: \(reason)"
        case .colorTransformFailed(let reason): "colour transform failed: \(reason)"
        }
    }

    /// A stable short name of the case: a decoding failure's own name (``ImageDecodingError/shortName``),
    /// `empty-crop`, `invalid-size`, `invalid-thumbnail-size`, `too-large-source`, `invalid-color-profile`,
    /// `unsupported-color-profile` or `color-transform-failed`.
    public var shortName: String {
        switch self {
        case .decoding(let error): error.shortName
        case .emptyCrop: "empty-crop"
        case .invalidSize: "invalid-size"
        case .invalidThumbnailSize: "invalid-thumbnail-size"
        case .sourceTooLarge: "too-large-source"
        case .invalidColorProfile: "invalid-color-profile"
        case .unsupportedColorProfile: "unsupported-color-profile"
        case .colorTransformFailed: "color-transform-failed"
        }
    }
}

extension ImageProcessingError {
    /// Whether a thumbnail was refused: its size, or a source over its pixel limit.
    package var isThumbnailRefusal: Bool {
        switch self {
        case .invalidThumbnailSize, .sourceTooLarge: true
        default: false
        }
    }

    /// Whether a colour conversion failed (a profile, or the transform between two).
    package var isColorConversion: Bool {
        switch self {
        case .invalidColorProfile, .unsupportedColorProfile, .colorTransformFailed: true
        default: false
        }
    }
}
