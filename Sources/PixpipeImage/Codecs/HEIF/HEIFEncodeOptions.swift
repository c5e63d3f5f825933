/// HEIC encoder settings (libheif with x265).
///
/// Quality 1...100 is libheif's lossy quality, which it maps onto x265's CRF. Lossless asks x265 for
/// lossless coding with 4:4:4 chroma; libheif 1.15 still converts RGB to YCbCr (BT.601), so 8-bit samples
/// come back within 1 of the input. 16-bit images are written with 10 bits by default (the depth phones
/// use and every HEVC decoder reads), 8-bit images with 8.
public struct HEIFEncodeOptions: ImageEncodeOptions {
    /// HEIF.
    public var format: ImageFormat { .heif }
    /// The default quality, 75.
    public static let defaultQuality = 75

    /// Quality 1...100. Default ``defaultQuality``.
    public var quality: Int
    /// x265's lossless mode with 4:4:4 chroma (``quality`` is then ignored).
    public var lossless: Bool
    /// Bits per sample in the file: 8 or 10; `nil` for 8 from 8-bit images and 10 from 16-bit ones.
    public var bitDepth: Int?
    /// Write the image's ICC profile, EXIF block and XMP packet when it has them.
    public var includesMetadata: Bool

    /// Options; every argument has the documented default.
    public init(
        quality: Int = HEIFEncodeOptions.defaultQuality, lossless: Bool = false, bitDepth: Int? = nil,
        includesMetadata: Bool = true
    ) {
        self.quality = quality
        self.lossless = lossless
        self.bitDepth = bitDepth
        self.includesMetadata = includesMetadata
    }
}

extension ImageEncoding {
    /// HEIC with default options (quality 75, 8 bits from 8-bit images).
    public static var heif: ImageEncoding { .heif(HEIFEncodeOptions()) }
    /// HEIC with `options`.
    public static func heif(_ options: HEIFEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
    /// HEIC at `quality` (1...100), other options default.
    public static func heif(quality: Int) -> ImageEncoding { .heif(HEIFEncodeOptions(quality: quality)) }
}
