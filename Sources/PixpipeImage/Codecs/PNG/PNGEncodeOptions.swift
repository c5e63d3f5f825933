/// PNG encoder settings.
public struct PNGEncodeOptions: ImageEncodeOptions {
    /// PNG.
    public var format: ImageFormat { .png }

    /// zlib compression level, 0 (none) to 9 (smallest). Default 6.
    public var compressionLevel: Int
    /// Write Adam7-interlaced.
    public var interlaced: Bool
    /// Write the image's ICC profile (`iCCP`) when it has one.
    public var includesICCProfile: Bool
    /// Write the image's EXIF block (`eXIf`) when it has one, with its orientation.
    public var includesEXIF: Bool

    /// Options; every argument has the documented default.
    public init(
        compressionLevel: Int = 6, interlaced: Bool = false, includesICCProfile: Bool = true, includesEXIF: Bool = true
    ) {
        self.compressionLevel = compressionLevel
        self.interlaced = interlaced
        self.includesICCProfile = includesICCProfile
        self.includesEXIF = includesEXIF
    }
}

extension ImageEncoding {
    /// PNG with default options.
    public static var png: ImageEncoding { .png(PNGEncodeOptions()) }
    /// PNG with `options`.
    public static func png(_ options: PNGEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
}
