/// What a thumbnail should look like and how much work and memory making it may take.
///
/// ```swift
/// var options = ThumbnailOptions(size: .box(256))
/// options.mode = .fill                      // a 256x256 square, centre-cropped
/// let thumbnail = try Thumbnailer(options).thumbnail(contentsOfFile: "photo.jpg")
/// ```
public struct ThumbnailOptions: Sendable, Hashable {
    /// The box or side the thumbnail is sized to, in upright (oriented) pixels.
    public enum Size: Sendable, Hashable {
        /// A box `width` x `height`; ``ThumbnailOptions/mode`` says whether the picture fits in it or fills it.
        case box(width: Int, height: Int)
        /// A target width; the height follows the aspect ratio.
        case width(Int)
        /// A target height; the width follows the aspect ratio.
        case height(Int)
        /// Both sides multiplied by a factor (0.5 halves them); the aspect ratio is kept.
        case scale(Double)

        /// A square box `side` x `side`.
        public static func box(_ side: Int) -> Size { .box(width: side, height: side) }
    }

    /// How the picture meets a box.
    public enum Mode: Sendable, Hashable {
        /// The whole picture, inside the box; one side matches the box, the other is shorter or equal.
        case fit
        /// The box covered, then cut to the box around the centre: the output is exactly the box.
        case fill
        /// Exactly the box, the aspect ratio not kept; the picture is enlarged when the box is larger,
        /// whatever ``ThumbnailOptions/allowsUpscaling`` says, since the exact size is the point.
        case stretch
    }

    /// The target size. Default: a 256 x 256 box.
    public var size: Size
    /// Fit in the box (default) or fill it; ignored for `.width` and `.height` sizes.
    public var mode: Mode
    /// Whether a picture smaller than the target is enlarged. Off by default: small pictures stay as they are
    /// (with `.fill`, the output is then the box cut to the picture's size).
    public var allowsUpscaling: Bool
    /// Whether a picture larger than the target is reduced. On by default; off leaves larger pictures as
    /// they are and only enlarges smaller ones (ImageMagick's `WxH<`), with ``allowsUpscaling``.
    public var allowsDownscaling: Bool = true
    /// The resampling filter of the final resize. Default Lanczos-3.
    public var filter: ResizeFilter
    /// Resample in linear light (see ``ResizeOptions/linearLight``). Off by default.
    public var linearLight: Bool
    /// Apply the EXIF orientation (after cutting an AVIF clean aperture), so the output is upright and
    /// carries orientation 1. On by default.
    public var appliesOrientation: Bool
    /// The most pixels any image buffer the thumbnailer allocates may hold; `nil` lifts the limit.
    ///
    /// It applies to what is really allocated: a JPEG's DCT-reduced decode (so a 200-megapixel photo
    /// thumbnailed at 1/8 scale passes where a full decode would not), an interlaced PNG's full decode,
    /// and the resized image. A non-interlaced PNG streams row by row and never holds its full size, so
    /// only ``sourcePixelLimit`` bounds it. Default ``DecodeOptions/defaultPixelLimit`` (100 MP).
    public var pixelLimit: Int?
    /// The most pixels the source may have, whatever is allocated; `nil` lifts the limit.
    ///
    /// Streaming and DCT scaling keep memory flat, but every source pixel is still decompressed, so
    /// this bounds time: 1 gigapixel by default (a few seconds of decoding), refused from the header.
    public var sourcePixelLimit: Int?
    /// The most input bytes accepted; `nil` lifts the limit. Default ``DecodeOptions/defaultByteLimit``.
    public var byteLimit: Int?
    /// Strict (throw) or lenient (warn, zero-fill) about damaged data.
    public var strictness: DecodeOptions.Strictness
    /// Decode every coded byte of the source, so damage anywhere in the file is seen and the thumbnail is
    /// made from every bit of it; for a thumbnail that also proves a kept source whole. Default `false`: a
    /// progressive JPEG thumbnailed at 1/8 scale skips its luma AC scans, which cannot change a pixel of the
    /// result, and at 2/8 its luma's last-bit AC refinement scans, which change it by 0.02-0.2 dB (its
    /// markers are still followed to EOI, so truncation is still seen).
    public var decodesWholeSource = false
    /// The most threads one resize uses; `nil` means every core. A batch running one thumbnail per core sets 1.
    public var maximumConcurrency: Int?
    /// The colour conversion applied to the thumbnail, after resizing (on its few pixels, not the source's);
    /// `nil` keeps the source's ICC profile and pixels as they are. Default ``ColorConversion/untaggedSRGB``:
    /// sRGB with no profile, what viewers that ignore profiles show right. A source without a profile is
    /// taken as sRGB and costs nothing.
    public var colorConversion: ColorConversion?

    /// The default limit on source pixels: 1 gigapixel.
    public static let defaultSourcePixelLimit = 1_000_000_000

    /// Options; every argument has the documented default.
    public init(
        size: Size = .box(256), mode: Mode = .fit, allowsUpscaling: Bool = false, filter: ResizeFilter = .lanczos3,
        linearLight: Bool = false, appliesOrientation: Bool = true,
        pixelLimit: Int? = DecodeOptions.defaultPixelLimit,
        sourcePixelLimit: Int? = ThumbnailOptions.defaultSourcePixelLimit,
        byteLimit: Int? = DecodeOptions.defaultByteLimit, strictness: DecodeOptions.Strictness = .strict,
        maximumConcurrency: Int? = nil, colorConversion: ColorConversion? = .untaggedSRGB
    ) {
        self.size = size
        self.mode = mode
        self.allowsUpscaling = allowsUpscaling
        self.filter = filter
        self.linearLight = linearLight
        self.appliesOrientation = appliesOrientation
        self.pixelLimit = pixelLimit
        self.sourcePixelLimit = sourcePixelLimit
        self.byteLimit = byteLimit
        self.strictness = strictness
        self.maximumConcurrency = maximumConcurrency
        self.colorConversion = colorConversion
    }

    /// The options of the final resize.
    var resizeOptions: ResizeOptions {
        ResizeOptions(linearLight: linearLight, maximumConcurrency: maximumConcurrency)
    }
}
