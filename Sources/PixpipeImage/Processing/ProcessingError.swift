/// Why an image could not be cropped or resized.
public enum ProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
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
}
