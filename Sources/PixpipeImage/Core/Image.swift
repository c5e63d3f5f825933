/// A decoded image: a pixel buffer plus the metadata read from its source.
///
/// Pixels are stored row-major, top-left first, `bytesPerRow` bytes per row with no padding
/// beyond `width * pixelFormat.bytesPerPixel`. 16-bit samples are `UInt16` in native byte order.
///
/// ```swift
/// let image = try Image(contentsOfFile: "photo.jpg")
/// print(image.width, image.height, image.pixelFormat)   // 1800 1200 rgb8: the stored pixels
/// print(image.shownSize)                                // 1200x1800 when its EXIF orientation turns it
/// let red = image[x: 10, y: 20, channel: 0]
/// ```
public struct Image: Sendable, Hashable {
    /// The width of the stored pixels, before the EXIF orientation: a portrait photo stored on its side
    /// is wider than tall here. ``shownSize`` is the size as shown.
    public let width: Int
    /// The height of the stored pixels, before the EXIF orientation; see ``width`` and ``shownSize``.
    public let height: Int
    /// Channel layout and sample depth.
    public let pixelFormat: PixelFormat
    /// The pixel bytes, row-major, top-left first.
    public private(set) var pixels: [UInt8]
    /// What the decoder learned about the source (format, orientation, ICC profile, ...).
    public var metadata: ImageMetadata

    /// Bytes per row: `width * pixelFormat.bytesPerPixel`.
    public var bytesPerRow: Int { width * pixelFormat.bytesPerPixel }

    /// The number of pixels, `width * height`.
    public var pixelCount: Int { width * height }

    /// An image over existing pixel bytes; `pixels.count` must equal `height * bytesPerRow`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8], metadata: ImageMetadata = .init()) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        precondition(
            pixels.count == width * height * pixelFormat.bytesPerPixel,
            "pixel buffer size does not match width * height * bytesPerPixel")
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
        self.metadata = metadata
    }

    /// An image with every sample zero (transparent black where there is alpha).
    public init(width: Int, height: Int, pixelFormat: PixelFormat, metadata: ImageMetadata = .init()) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat,
            pixels: [UInt8](repeating: 0, count: width * height * pixelFormat.bytesPerPixel),
            metadata: metadata)
    }

    /// The sample at (`x`, `y`) in `channel`, widened to `Int` (0...255 or 0...65535).
    public subscript(x x: Int, y y: Int, channel channel: Int) -> Int {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < pixelFormat.channels)
            let sampleIndex = (y * width + x) * pixelFormat.channels + channel
            if pixelFormat.bitsPerSample == 8 { return Int(pixels[sampleIndex]) }
            return pixels.withUnsafeBytes { Int($0.load(fromByteOffset: sampleIndex * 2, as: UInt16.self)) }
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < pixelFormat.channels)
            let sampleIndex = (y * width + x) * pixelFormat.channels + channel
            if pixelFormat.bitsPerSample == 8 {
                pixels[sampleIndex] = UInt8(clamping: newValue)
            } else {
                pixels.withUnsafeMutableBytes {
                    $0.storeBytes(of: UInt16(clamping: newValue), toByteOffset: sampleIndex * 2, as: UInt16.self)
                }
            }
        }
    }

    /// Calls `body` with the raw pixel bytes.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try pixels.withTypedBytes(body)
    }

    /// Calls `body` with the raw pixel bytes, mutable.
    public mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try pixels.withTypedMutableBytes(body)
    }

    /// The 8-bit samples; for 16-bit images, each sample's high byte.
    public var samples8: [UInt8] {
        if pixelFormat.bitsPerSample == 8 { return pixels }
        return pixels.withUnsafeBytes { raw in raw.bindMemory(to: UInt16.self).map { UInt8($0 >> 8) } }
    }

    /// The 16-bit samples; for 8-bit images, each sample scaled by 257.
    public var samples16: [UInt16] {
        if pixelFormat.bitsPerSample == 16 {
            return pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        }
        return pixels.map { UInt16($0) &* 257 }
    }
}
