/// JPEG encoder settings.
public struct JPEGEncodeOptions: ImageEncodeOptions {
    /// JPEG.
    public var format: ImageFormat { .jpeg }
    /// The default quality, 85: what thumbnails, `pixpipe convert` and the downloader write unless told.
    public static let defaultQuality = 85

    /// Chroma subsampling of the colour channels.
    public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
        /// No subsampling.
        case s444 = "4:4:4"
        /// Half horizontal resolution.
        case s422 = "4:2:2"
        /// Half horizontal and vertical resolution (the usual choice for photos).
        case s420 = "4:2:0"
    }

    /// Quality 1...100. Default ``defaultQuality``.
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
    /// MCU rows between restart markers (RSTn); 0 writes none. Internal: the tests build damaged
    /// restart intervals from it.
    var restartRows = 0

    /// Options; every argument has the documented default.
    public init(
        quality: Int = JPEGEncodeOptions.defaultQuality, progressive: Bool = false, optimizesHuffmanTables: Bool = true,
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

extension ImageEncoding {
    /// JPEG with default options (quality 85, 4:2:0, optimized Huffman tables).
    public static var jpeg: ImageEncoding { .jpeg(JPEGEncodeOptions()) }
    /// JPEG with `options`.
    public static func jpeg(_ options: JPEGEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
    /// JPEG at `quality` (1...100), other options default.
    public static func jpeg(quality: Int) -> ImageEncoding { .jpeg(JPEGEncodeOptions(quality: quality)) }
}
