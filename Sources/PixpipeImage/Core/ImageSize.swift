/// A width and a height in pixels, such as ``Image/shownSize``.
///
/// ```swift
/// let size = image.shownSize                  // 1200x1800 for a portrait phone photo stored 1800x1200
/// let small = try image.resized(toFit: ImageSize(width: 400, height: 400))
/// ```
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// A size of `width` x `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`, as the command line prints sizes: `1200x1800`.
    public var description: String { "\(width)x\(height)" }
}
