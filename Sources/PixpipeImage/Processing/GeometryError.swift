/// Why an image could not be cropped or resized: the rectangle or the size asked for does not fit the image.
///
/// ```swift
/// do { _ = try image.cropped(to: rect) } catch { print(error.shortName) }   // "empty-crop"
/// ```
public enum GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The crop rectangle does not overlap the image (or has no area).
    case emptyCrop(PixelRect, imageWidth: Int, imageHeight: Int)
    /// A requested output size is zero, negative, or too large to allocate.
    case invalidSize(width: Int, height: Int)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .emptyCrop(let rect, let imageWidth, let imageHeight):
            "crop \(rect) does not overlap the \(imageWidth)x\(imageHeight) image"
        case .invalidSize(let width, let height): "invalid output size \(width)x\(height)"
        }
    }

    /// A stable short name of the case: `empty-crop` or `invalid-size`.
    public var shortName: String {
        switch self {
        case .emptyCrop: "empty-crop"
        case .invalidSize: "invalid-size"
        }
    }
}

/// The former name of ``GeometryError``, which said neither crop nor resize.
@available(*, deprecated, renamed: "GeometryError")
public typealias ProcessingError = GeometryError
