/// WebP encoder settings.
public struct WebPEncodeOptions: ImageEncodeOptions {
    /// WebP.
    public var format: ImageFormat { .webp }
    /// The default quality, 85, as for JPEG: `pixpipe convert`, thumbnails and the downloader write it unless told.
    public static let defaultQuality = JPEGEncodeOptions.defaultQuality

    /// Quality 1...100 for lossy images; for lossless ones, how hard to compress (100 = smallest).
    public var quality: Int
    /// The speed/size trade-off, 0 (fastest) to 6 (smallest). Default 4, libwebp's own.
    public var method: Int
    /// Encode losslessly (VP8L): every sample kept exactly.
    public var lossless: Bool
    /// Write the image's ICC profile (`ICCP`) when it has one.
    public var includesICCProfile: Bool
    /// Write the image's EXIF block (`EXIF`) when it has one, with its orientation.
    public var includesEXIF: Bool

    /// Options; every argument has the documented default.
    public init(
        quality: Int = WebPEncodeOptions.defaultQuality, method: Int = 4, lossless: Bool = false,
        includesICCProfile: Bool = true, includesEXIF: Bool = true
    ) {
        self.quality = quality
        self.method = method
        self.lossless = lossless
        self.includesICCProfile = includesICCProfile
        self.includesEXIF = includesEXIF
    }
}

extension ImageEncoding {
    /// Lossy WebP with default options (quality 85, method 4).
    public static var webp: ImageEncoding { .webp(WebPEncodeOptions()) }
    /// WebP with `options`.
    public static func webp(_ options: WebPEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
    /// Lossy WebP at `quality` (1...100), other options default.
    public static func webp(quality: Int) -> ImageEncoding { .webp(WebPEncodeOptions(quality: quality)) }
    /// Lossless WebP.
    public static var webpLossless: ImageEncoding { .webp(WebPEncodeOptions(lossless: true)) }
}
