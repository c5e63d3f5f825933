/// A rectangle of whole pixels: the top-left corner and a size, in pixel units.
///
/// ```swift
/// let centre = try image.cropped(to: PixelRect(x: 100, y: 50, width: 640, height: 480))
/// ```
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The left edge (the first column inside the rectangle).
    public var x: Int
    /// The top edge (the first row inside the rectangle).
    public var y: Int
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// A rectangle; a negative or zero size makes an empty rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels inside both rectangles; empty (`isEmpty`) when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        // Saturating arithmetic: a rectangle built from untrusted numbers must not trap on overflow.
        let right = min(Self.end(x, width), Self.end(other.x, other.width))
        let bottom = min(Self.end(y, height), Self.end(other.y, other.height))
        let left = max(x, other.x)
        let top = max(y, other.y)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// `origin + length`, saturated at `Int.max`.
    private static func end(_ origin: Int, _ length: Int) -> Int {
        let (sum, overflow) = origin.addingReportingOverflow(length)
        if overflow { return length > 0 ? Int.max : Int.min }
        return sum
    }

    /// `x,y widthxheight`, for messages.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// Where a rectangle of an image's pixels lands when the whole image is turned, scaled or cut, so that a
/// clean aperture (``ImageMetadata/cleanAperture``) keeps naming the same part of the picture after
/// ``Image/transformed(by:)``, ``Image/resized(width:height:filter:options:)`` and ``Image/cropped(to:)``.
extension PixelRect {
    /// The rectangle after a `width` x `height` image is transformed by `orientation` (see
    /// ``OrientationMapping`` for the eight maps): the same pixels, in the output's coordinates.
    func transformed(by orientation: Orientation, width: Int, height: Int) -> PixelRect {
        // Each stored edge lands on an output edge; a mirrored axis counts from the far side.
        let flippedX = width - (x + self.width)
        let flippedY = height - (y + self.height)
        switch orientation {
        case .up: return self
        case .upMirrored: return PixelRect(x: flippedX, y: y, width: self.width, height: self.height)
        case .down: return PixelRect(x: flippedX, y: flippedY, width: self.width, height: self.height)
        case .downMirrored: return PixelRect(x: x, y: flippedY, width: self.width, height: self.height)
        case .leftMirrored: return PixelRect(x: y, y: x, width: self.height, height: self.width)
        case .right: return PixelRect(x: flippedY, y: x, width: self.height, height: self.width)
        case .rightMirrored: return PixelRect(x: flippedY, y: flippedX, width: self.height, height: self.width)
        case .left: return PixelRect(x: y, y: flippedX, width: self.height, height: self.width)
        }
    }

    /// The rectangle after a `width` x `height` image is resampled to `newWidth` x `newHeight`: its edges
    /// scaled and rounded outwards (no shown pixel is lost), kept inside the new image, at least one pixel.
    func scaled(fromWidth width: Int, height: Int, toWidth newWidth: Int, height newHeight: Int) -> PixelRect {
        func edges(_ start: Int, _ length: Int, _ from: Int, _ to: Int) -> (Int, Int) {
            let scale = Double(to) / Double(from)
            let first = min(max(Int((Double(start) * scale).rounded(.down)), 0), to - 1)
            let last = min(max(Int((Double(start + length) * scale).rounded(.up)), first + 1), to)
            return (first, last - first)
        }
        let (left, columns) = edges(x, self.width, width, newWidth)
        let (top, rows) = edges(y, self.height, height, newHeight)
        return PixelRect(x: left, y: top, width: columns, height: rows)
    }

    /// The rectangle after the image is cut to `crop` (already inside the image): moved to the crop's
    /// coordinates and clipped to it; `nil` when nothing of it is left.
    func cut(to crop: PixelRect) -> PixelRect? {
        let inside = intersection(crop)
        guard !inside.isEmpty else { return nil }
        return PixelRect(x: inside.x - crop.x, y: inside.y - crop.y, width: inside.width, height: inside.height)
    }
}
