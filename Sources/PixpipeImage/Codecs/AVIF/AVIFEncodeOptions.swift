/// AVIF encoder settings (libavif with aom).
///
/// Quality 1...99 maps linearly onto libavif 0.11's quantizer scale (0 best ... 63 worst) as
/// `quantizer = ((100 - quality) * 63 + 50) / 100`, so 99 is quantizer 1, 60 is 25 and 1 is 62; the
/// same quantizer is used for colour and alpha. Quality 100 is lossless: quantizer 0, 4:4:4, the
/// identity matrix and full range, which gives back every 8-bit sample exactly.
public struct AVIFEncodeOptions: ImageEncodeOptions {
    /// AVIF.
    public var format: ImageFormat { .avif }
    /// The default quality, 60 (quantizer 25, close to `avifenc`'s defaults).
    public static let defaultQuality = 60
    /// The default speed, 6: aom's good balance of time and size.
    public static let defaultSpeed = 6

    /// Chroma subsampling of lossy colour images (lossless and gray images ignore it).
    public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
        /// Full-resolution chroma.
        case s444 = "4:4:4"
        /// Half horizontal chroma resolution.
        case s422 = "4:2:2"
        /// Half horizontal and vertical chroma resolution (the usual choice for photos).
        case s420 = "4:2:0"
    }

    /// Quality 1...100; 100 is lossless. Default ``defaultQuality``.
    public var quality: Int
    /// Encoder speed 0 (slowest, smallest) ... 10 (fastest). Default ``defaultSpeed``.
    public var speed: Int
    /// Bits per sample in the file: 8 or 10.
    public var bitDepth: Int
    /// Chroma subsampling of lossy colour images.
    public var chromaSubsampling: ChromaSubsampling
    /// Write the image's ICC profile (`colr` box) when it has one.
    public var includesICCProfile: Bool
    /// Write the image's EXIF block (an `Exif` item) when it has one, with its orientation.
    public var includesEXIF: Bool

    /// Options; every argument has the documented default.
    public init(
        quality: Int = AVIFEncodeOptions.defaultQuality, speed: Int = AVIFEncodeOptions.defaultSpeed,
        bitDepth: Int = 8, chromaSubsampling: ChromaSubsampling = .s420, includesICCProfile: Bool = true,
        includesEXIF: Bool = true
    ) {
        self.quality = quality
        self.speed = speed
        self.bitDepth = bitDepth
        self.chromaSubsampling = chromaSubsampling
        self.includesICCProfile = includesICCProfile
        self.includesEXIF = includesEXIF
    }

    /// Whether the settings ask for a lossless file (quality 100).
    public var isLossless: Bool { quality == 100 }

    /// libavif's quantizer for ``quality`` (0 for lossless).
    var quantizer: Int32 { Int32(((100 - quality) * 63 + 50) / 100) }
}

extension ImageEncoding {
    /// AVIF with default options (quality 60, speed 6, 8 bits, 4:2:0).
    public static var avif: ImageEncoding { .avif(AVIFEncodeOptions()) }
    /// AVIF with `options`.
    public static func avif(_ options: AVIFEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
    /// AVIF at `quality` (1...100, 100 lossless), other options default.
    public static func avif(quality: Int) -> ImageEncoding { .avif(AVIFEncodeOptions(quality: quality)) }
}
