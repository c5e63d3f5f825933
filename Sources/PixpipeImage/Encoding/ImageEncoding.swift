import Foundation

/// A target format and its settings, for ``Image/encoded(as:)``.
///
/// Each codec declares its own options type and short static names (`.png`, `.jpeg(quality:)`) in its
/// folder, so the set of encodings grows with the codec table:
///
/// ```swift
/// let jpeg = try image.encoded(as: .jpeg(quality: 90))
/// let png = try image.encoded(as: .png)
/// ```
public struct ImageEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The codec-specific settings.
    public let options: any ImageEncodeOptions

    /// An encoding with `options`, whose type names the format.
    public init(_ options: some ImageEncodeOptions) {
        self.options = options
    }

    /// The container format written.
    public var format: ImageFormat { options.format }

    /// The format and its settings.
    public var description: String { "\(format.rawValue) \(options)" }

    /// The encoding the command line uses for `format` given only the common settings, or `nil` when the
    /// package cannot write `format`.
    public static func standard(for format: ImageFormat, _ settings: StandardEncodeSettings = .init())
        -> ImageEncoding?
    {
        ImageCodecs.codec(for: format)?.standardEncoding(settings)
    }

    /// Equal when the options are of one type and equal.
    public static func == (lhs: ImageEncoding, rhs: ImageEncoding) -> Bool {
        AnyHashable(lhs.options) == AnyHashable(rhs.options)
    }

    /// Hashes the options.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(options))
    }
}

/// One codec's encoder settings (``PNGEncodeOptions``, ``JPEGEncodeOptions``, ...).
public protocol ImageEncodeOptions: Sendable, Hashable {
    /// The format these options write.
    var format: ImageFormat { get }
}

/// The settings every encoder understands, mapped by each codec to its own options.
public struct StandardEncodeSettings: Sendable, Hashable {
    /// Quality 1...100 for lossy formats; `nil` for the codec's default. Ignored by lossless formats.
    public var quality: Int?
    /// Progressive JPEG, interlaced PNG; ignored where the format has no such mode.
    public var progressive: Bool
    /// Write the ICC profile and the EXIF block when the image has them.
    public var keepsMetadata: Bool
    /// Encode every sample exactly, where the format has a lossless mode beside its lossy one (WebP's VP8L,
    /// AVIF at quality 100); ignored elsewhere. ``quality`` then means effort where the codec says so.
    public var lossless: Bool
    /// Encoder effort, 1 (fastest) to 9 (slowest, smallest), where the format trades time for size
    /// (JPEG XL's effort); `nil` for the codec's default. Ignored elsewhere.
    public var effort: Int?

    /// Settings; every argument has the documented default.
    public init(
        quality: Int? = nil, progressive: Bool = false, keepsMetadata: Bool = true, lossless: Bool = false,
        effort: Int? = nil
    ) {
        self.quality = quality
        self.progressive = progressive
        self.keepsMetadata = keepsMetadata
        self.lossless = lossless
        self.effort = effort
    }
}

extension Image {
    /// Encodes the image with `encoding`'s codec.
    ///
    /// Each format stores what it can: JPEG stores 8-bit gray or RGB (alpha is composited over white and
    /// 16-bit samples are reduced to 8 bits first); PNG stores every pixel format as it is.
    public func encoded(as encoding: ImageEncoding) throws(ImageEncodingError) -> Data {
        guard let codec = ImageCodecs.codec(for: encoding.format), codec.canEncode else {
            throw .unsupportedFormat(encoding.format)
        }
        return try codec.encode(self, options: encoding.options)
    }
}
