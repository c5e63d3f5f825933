/// A target format and its settings, for ``Image/encoded(as:)``.
///
/// ```swift
/// let jpeg = try image.encoded(as: .jpeg(quality: 90))
/// let png = try image.encoded(as: .png)
/// ```
public enum ImageEncoding: Sendable, Hashable {
    /// PNG with the given options.
    case png(PNGEncodeOptions)
    /// JPEG with the given options.
    case jpeg(JPEGEncodeOptions)

    /// PNG with default options.
    public static var png: ImageEncoding { .png(PNGEncodeOptions()) }
    /// JPEG with default options (quality 85, 4:2:0, optimized Huffman tables).
    public static var jpeg: ImageEncoding { .jpeg(JPEGEncodeOptions()) }
    /// JPEG at `quality` (1...100), other options default.
    public static func jpeg(quality: Int) -> ImageEncoding { .jpeg(JPEGEncodeOptions(quality: quality)) }

    /// The container format written.
    public var format: ImageFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        }
    }
}

/// PNG encoder settings.
public struct PNGEncodeOptions: Sendable, Hashable {
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

/// JPEG encoder settings.
public struct JPEGEncodeOptions: Sendable, Hashable {
    /// Chroma subsampling of the colour channels.
    public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
        /// No subsampling.
        case s444 = "4:4:4"
        /// Half horizontal resolution.
        case s422 = "4:2:2"
        /// Half horizontal and vertical resolution (the usual choice for photos).
        case s420 = "4:2:0"
    }

    /// Quality 1...100. Default 85.
    public var quality: Int
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// Compute optimal Huffman tables (smaller files, slightly slower).
    public var optimizesHuffmanTables: Bool
    /// Chroma subsampling; ignored for grayscale images.
    public var chromaSubsampling: ChromaSubsampling
    /// Write the image's ICC profile (APP2) when it has one.
    public var includesICCProfile: Bool
    /// Write the image's EXIF block (APP1) when it has one, with its orientation.
    public var includesEXIF: Bool

    /// Options; every argument has the documented default.
    public init(
        quality: Int = 85, progressive: Bool = false, optimizesHuffmanTables: Bool = true,
        chromaSubsampling: ChromaSubsampling = .s420, includesICCProfile: Bool = true, includesEXIF: Bool = true
    ) {
        self.quality = quality
        self.progressive = progressive
        self.optimizesHuffmanTables = optimizesHuffmanTables
        self.chromaSubsampling = chromaSubsampling
        self.includesICCProfile = includesICCProfile
        self.includesEXIF = includesEXIF
    }
}
