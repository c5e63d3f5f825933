import Foundation

/// Makes the animated thumbnail of an animation: every frame resized with the same geometry and encoded as one
/// animation, delays and loop count kept.
///
/// ```swift
/// let thumbnailer = AnimationThumbnailer(options: ThumbnailOptions(size: .box(128)), encoding: .webp)
/// let thumbnail = try thumbnailer.thumbnail(data: try Data(contentsOf: gifURL))
/// try thumbnail.data.write(to: webpURL)   // thumbnail.width x thumbnail.height, every frame
/// ```
///
/// The canvas is one size, so every frame gets the plan of the first. Frames are decoded one at a time and
/// only their thumbnails are kept, since the encoder takes them all at once. A still image gives an animation
/// of one frame.
public struct AnimationThumbnailer: Sendable, Hashable {
    /// Size, mode, filter and limits, as for a still thumbnail (``Thumbnailer``).
    public var options: ThumbnailOptions
    /// The encoding; its format must hold animations (``ImageFormat/canEncodeAnimation``).
    public var encoding: ImageEncoding
    /// The most frames an input may declare; `nil` for no limit.
    public var frameLimit: Int?

    /// A thumbnailer of `options` writing `encoding`, refusing inputs that declare more than `frameLimit` frames.
    public init(options: ThumbnailOptions, encoding: ImageEncoding, frameLimit: Int? = DecodeOptions.defaultFrameLimit)
    {
        self.options = options
        self.encoding = encoding
        self.frameLimit = frameLimit
    }

    /// An encoded animated thumbnail, its size and the decoder's warnings.
    public struct Thumbnail: Sendable, Hashable {
        /// The encoded file.
        public let data: Data
        /// The thumbnail width, every frame's.
        public let width: Int
        /// The thumbnail height, every frame's.
        public let height: Int
        /// The warnings of every frame, each once.
        public let warnings: [DecodeWarning]
    }

    /// The animated thumbnail of the image in `data`; `finishing` is applied to each resized frame before
    /// encoding (a background to flatten onto, metadata to drop).
    ///
    /// Throws what the failing stage throws: ``ImageDecodingError`` when the input cannot be read (limits
    /// included), ``ImageProcessingError`` when a frame cannot be thumbnailed, ``ImageEncodingError`` when the
    /// frames cannot be encoded (a format without animation, for one).
    public func thumbnail(data: Data, finishing: (Image) throws -> Image = { $0 }) throws -> Thumbnail {
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: options.byteLimit, strictness: options.strictness,
            frameLimit: frameLimit)
        let reader = try AnimationReader(data: data, options: decodeOptions)
        let thumbnailer = Thumbnailer(options)
        var frames: [AnimationFrame] = []
        var warnings: [DecodeWarning] = []
        while var frame = try reader.nextFrame() {
            warnings += frame.image.metadata.warnings.filter { !warnings.contains($0) }
            frame.image = try finishing(try thumbnailer.thumbnail(of: frame.image))
            frames.append(frame)
        }
        let data = try encoding.encodeAnimation(frames, loopCount: reader.loopCount)
        return Thumbnail(
            data: data, width: frames.first?.image.width ?? 0, height: frames.first?.image.height ?? 0,
            warnings: warnings)
    }
}
