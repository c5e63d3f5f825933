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
    /// The most frames an animation may declare; `nil` lifts the limit. Default 10,000.
    public var frameLimit: Int?
    /// The most pixels all frames of an animation may hold together (canvas pixels times frames), so a
    /// small canvas cannot hide a huge animation; `nil` lifts the limit. Default 1 gigapixel.
    public var animationPixelLimit: Int?

    /// The default limit on decoded pixels: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000
    /// The default limit on input bytes: 256 MiB.
    public static let defaultByteLimit = 256 << 20
    /// The default limit on an animation's frames: 10,000.
    public static let defaultFrameLimit = 10_000
    /// The default limit on an animation's pixels over all frames: 1 gigapixel.
    public static let defaultAnimationPixelLimit = 1_000_000_000

    /// Options; every argument has the documented default.
    public init(
        pixelLimit: Int? = DecodeOptions.defaultPixelLimit,
        byteLimit: Int? = DecodeOptions.defaultByteLimit,
        keeps16Bit: Bool = false,
        strictness: Strictness = .strict,
        jpegScale: JPEGScale = .full,
        frameLimit: Int? = DecodeOptions.defaultFrameLimit,
        animationPixelLimit: Int? = DecodeOptions.defaultAnimationPixelLimit
    ) {
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
        self.keeps16Bit = keeps16Bit
        self.strictness = strictness
        self.jpegScale = jpegScale
        self.frameLimit = frameLimit
        self.animationPixelLimit = animationPixelLimit
    }

    /// Throws ``ImageDecodingError/tooLarge(width:height:limit:)`` or
    /// ``ImageDecodingError/tooManyFrames(count:limit:)`` when an animation's header declares more than the
    /// limits allow: the canvas, the frame count, or the pixels of every frame together.
    public func checkAnimation(width: Int, height: Int, frameCount: Int) throws(ImageDecodingError) {
        try checkPixels(width: width, height: height)
        if let frameLimit, frameCount > frameLimit { throw .tooManyFrames(count: frameCount, limit: frameLimit) }
        guard let animationPixelLimit else { return }
        let (canvas, overflow) = width.multipliedReportingOverflow(by: height)
        let (total, overflowTotal) = canvas.multipliedReportingOverflow(by: max(frameCount, 1))
        if overflow || overflowTotal || total > animationPixelLimit {
            throw .animationTooLarge(width: width, height: height, frames: frameCount, limit: animationPixelLimit)
        }
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
    /// Frame count, loop count and duration when the file is an animation (more than one frame).
    public var animation: AnimationInfo?
    /// How many separate images the file holds at the top level: a HEIF file's top-level images, a
    /// TIFF's pages; 1 for a single image or an animation (whose frames ``animation`` counts).
    public var imageCount: Int
    /// The images stored beside the primary one that decoding ignores (thumbnails, depth maps), as listed.
    public var auxiliaryImages: [AuxiliaryImage]
    /// Each top-level image's size and pixel format, in file order, when the file holds more than one
    /// (a TIFF's pages, which may differ in size); empty otherwise.
    public var pages: [PageInfo]
    /// The colour model the file stores its samples in, when the format has several and the header says
    /// (JPEG: gray, ycbcr, rgb, cmyk or ycck); ``pixelFormat`` is what decoding makes of them.
    public var storedColorModel: StoredColorModel?
    /// The number of components the file stores per pixel (4 for a CMYK JPEG), when known.
    public var storedComponents: Int?

    /// A colour model samples are stored in.
    public enum StoredColorModel: String, Sendable, Hashable, Codable {
        /// One gray sample.
        case gray
        /// Red, green and blue.
        case rgb
        /// Luma and two chroma samples.
        case ycbcr
        /// Cyan, magenta, yellow and black.
        case cmyk
        /// CMYK with the first three as luma and chroma (Adobe's YCCK).
        case ycck
        /// None of these.
        case other
    }

    /// Header facts.
    public init(
        format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat, metadata: ImageMetadata,
        animation: AnimationInfo? = nil, imageCount: Int = 1, auxiliaryImages: [AuxiliaryImage] = [],
        pages: [PageInfo] = []
    ) {
        self.pages = pages
        self.animation = animation
        self.imageCount = imageCount
        self.auxiliaryImages = auxiliaryImages
        self.format = format
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.metadata = metadata
    }
}

/// An image a file stores beside its primary image (a thumbnail, a depth map), which decoding ignores.
public struct AuxiliaryImage: Sendable, Hashable, Codable {
    /// What the image is for.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A smaller preview of the primary image.
        case thumbnail
        /// A depth map (distances, as portrait photos keep).
        case depth
        /// Any other auxiliary image (such as an HDR gain map), named by ``AuxiliaryImage/type``.
        case other
    }

    /// What the image is for.
    public var kind: Kind
    /// The file's own name for the image's type (an auxiliary type URN, `thmb`), when it has one.
    public var type: String?
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// An auxiliary image of `kind`, `width` x `height`.
    public init(kind: Kind, type: String? = nil, width: Int, height: Int) {
        self.kind = kind
        self.type = type
        self.width = width
        self.height = height
    }
}

extension DecodeOptions {
    /// Throws the first of `warnings` that loses pixels when strict; benign warnings never throw.
    ///
    /// Every codec calls this with the warnings its table classified (see ``WarningRule``), at each step
    /// where the library may have reported something, so strict decoding of damaged data stops early.
    func enforce(_ warnings: [DecodeWarning], format: ImageFormat) throws(ImageDecodingError) {
        guard strictness == .strict, let first = warnings.first(where: \.losesPixels) else { return }
        switch first.kind {
        case .truncated: throw .truncated(format: format, reason: first.message)
        case .corrupt, .benign: throw .corrupt(format: format, reason: first.message)
        }
    }
}
