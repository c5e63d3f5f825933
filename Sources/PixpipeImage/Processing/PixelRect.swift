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
