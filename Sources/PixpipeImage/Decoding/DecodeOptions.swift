/// How to decode: limits, strictness, sample depth and reduced-size decoding.
public struct DecodeOptions: Sendable, Hashable {
    /// What to do with damaged or truncated data.
    public enum Strictness: Sendable, Hashable {
        /// Any damage or truncation throws. The default, and what validation uses.
        case strict
        /// Return what could be decoded, with a ``DecodeWarning`` in the metadata for each problem.
        case lenient
    }

    /// The size a JPEG is decoded at, through libjpeg's DCT scaling (M/8 for M = 1...8).
    public enum JPEGScale: Sendable, Hashable {
        /// Full size.
        case full
        /// The smallest M/8 scale whose result is at least `width` x `height` (full size if none is).
        case atLeast(width: Int, height: Int)
        /// Exactly `numerator`/8, with `numerator` in 1...8.
        case eighths(Int)
    }

    /// The most pixels (width x height) a decode may allocate; `nil` lifts the limit. Default 100 MP.
    ///
    /// Checked against the header before any pixel buffer exists, and against the size actually
    /// allocated, so a reduced-size JPEG decode of a huge photo can pass where a full decode would not.
    public var pixelLimit: Int?
    /// The most input bytes accepted; `nil` lifts the limit. Default 256 MiB.
    public var byteLimit: Int?
    /// Keep 16-bit PNG samples as 16 bits (otherwise reduced to 8 by taking the high byte).
    public var keeps16Bit: Bool
    /// Strict (throw) or lenient (warn) about damaged data.
    public var strictness: Strictness
    /// Reduced-size decoding for JPEG; ignored for PNG.
    public var jpegScale: JPEGScale

    /// The default limit on decoded pixels: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000
    /// The default limit on input bytes: 256 MiB.
    public static let defaultByteLimit = 256 << 20

    /// Options; every argument has the documented default.
    public init(
        pixelLimit: Int? = DecodeOptions.defaultPixelLimit,
        byteLimit: Int? = DecodeOptions.defaultByteLimit,
        keeps16Bit: Bool = false,
        strictness: Strictness = .strict,
        jpegScale: JPEGScale = .full
    ) {
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
        self.keeps16Bit = keeps16Bit
        self.strictness = strictness
        self.jpegScale = jpegScale
    }

    /// Throws ``ImageDecodingError/inputTooLarge(bytes:limit:)`` when `count` is over the byte limit.
    public func checkBytes(_ count: Int) throws(ImageDecodingError) {
        if let byteLimit, count > byteLimit { throw .inputTooLarge(bytes: count, limit: byteLimit) }
    }

    /// Throws ``ImageDecodingError/tooLarge(width:height:limit:)`` when `width * height` is over the limit.
    public func checkPixels(width: Int, height: Int) throws(ImageDecodingError) {
        guard let limit = pixelLimit else { return }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || product > limit { throw .tooLarge(width: width, height: height, limit: limit) }
    }
}

/// What a header says about an image, read without decoding its pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The container format.
    public var format: ImageFormat
    /// Width in pixels, as stored (before orientation).
    public var width: Int
    /// Height in pixels, as stored (before orientation).
    public var height: Int
    /// The pixel format a default decode produces (16-bit where the source has 16 bits).
    public var pixelFormat: PixelFormat
    /// Source bit depth, interlacing, orientation, ICC profile and the rest.
    public var metadata: ImageMetadata

    /// Header facts.
    public init(format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat, metadata: ImageMetadata) {
        self.format = format
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.metadata = metadata
    }
}
