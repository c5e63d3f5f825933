import Foundation

/// JPEG XL encoder settings (libjxl 0.7).
///
/// Quality maps to libjxl's Butteraugli distance as `cjxl --quality` does: `0.1 + (100 - q) * 0.09` for
/// quality 30 and above (90 is distance 1.0, visually lossless), `6.4 + 2.5^((30 - q) / 5) / 6.25` below,
/// and quality 100 is mathematically lossless (modular), as ``lossless`` asks.
public struct JXLEncodeOptions: ImageEncodeOptions {
    /// JPEG XL.
    public var format: ImageFormat { .jxl }
    /// The default quality, 90 (distance 1.0, libjxl's default).
    public static let defaultQuality = 90
    /// The default effort, 7 (libjxl's default, "squirrel").
    public static let defaultEffort = 7

    /// Quality 1...100; 100 is lossless. Default ``defaultQuality``.
    public var quality: Int
    /// Mathematically lossless, whatever ``quality`` says.
    public var lossless: Bool
    /// Encoder effort 1 (fastest) ... 9 (slowest, smallest). Default ``defaultEffort``.
    public var effort: Int
    /// Bits per sample in the file: 8, or 16 (needs a 16-bit image to keep more than 8 bits).
    public var bitDepth: Int?
    /// Write the image's ICC profile when it has one (otherwise the file says sRGB).
    public var includesICCProfile: Bool

    /// Options; every argument has the documented default. `bitDepth` `nil` follows the image.
    public init(
        quality: Int = JXLEncodeOptions.defaultQuality, lossless: Bool = false,
        effort: Int = JXLEncodeOptions.defaultEffort, bitDepth: Int? = nil, includesICCProfile: Bool = true
    ) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
        self.bitDepth = bitDepth
        self.includesICCProfile = includesICCProfile
    }

    /// Whether the settings ask for a mathematically lossless file.
    public var isLossless: Bool { lossless || quality == 100 }

    /// libjxl's distance for ``quality`` (0 for lossless), `cjxl`'s mapping.
    public var distance: Float {
        if isLossless { return 0 }
        if quality >= 30 { return 0.1 + Float(100 - quality) * 0.09 }
        return Float(6.4 + pow(2.5, Double(30 - quality) / 5) / 6.25)
    }
}

extension ImageEncoding {
    /// JPEG XL with default options (quality 90, distance 1.0, effort 7).
    public static var jxl: ImageEncoding { .jxl(JXLEncodeOptions()) }
    /// JPEG XL with `options`.
    public static func jxl(_ options: JXLEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
    /// JPEG XL at `quality` (1...100, 100 lossless), other options default.
    public static func jxl(quality: Int) -> ImageEncoding { .jxl(JXLEncodeOptions(quality: quality)) }
}
