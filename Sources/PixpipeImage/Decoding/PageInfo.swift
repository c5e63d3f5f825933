/// One top-level image of a file that holds several (a TIFF page), as its header describes it.
public struct PageInfo: Sendable, Hashable, Codable {
    /// Width in pixels, as stored.
    public var width: Int
    /// Height in pixels, as stored.
    public var height: Int
    /// The pixel format a default decode of the page produces.
    public var pixelFormat: PixelFormat

    /// A page of `width` x `height` decoding to `pixelFormat`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
    }
}
