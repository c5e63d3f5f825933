import Foundation

/// Decodes an animation frame by frame, so a long animation is never held whole by a caller that walks it.
///
/// Every format of the codec table can be read this way: a still image is an animation of one frame.
/// Limits are checked from the header before any frame is decoded: the canvas against
/// ``DecodeOptions/pixelLimit``, the frame count against ``DecodeOptions/frameLimit``, and the pixels of
/// every frame together against ``DecodeOptions/animationPixelLimit``.
///
/// ```swift
/// let reader = try AnimationReader(data: gif)
/// while let frame = try reader.nextFrame() { print(frame.index, frame.duration) }
/// ```
public final class AnimationReader {
    /// The canvas width, the width of every frame's image; for a TIFF's pages, which may differ in size,
    /// the first page's width (each frame's image has its own page's size).
    public var canvasWidth: Int { decoder.canvasWidth }
    /// The canvas height.
    public var canvasHeight: Int { decoder.canvasHeight }
    /// How many frames the file declares.
    public var frameCount: Int { decoder.frameCount }
    /// How many times the animation plays; 0 means forever.
    public var loopCount: Int { decoder.loopCount }
    /// The container format.
    public let format: ImageFormat

    private let decoder: any FrameDecoder

    /// Opens `data` (any format of the codec table) and reads its header.
    public init(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        try options.checkBytes(data.count)
        let codec = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in try ImageCodecs.decoder(for: bytes)
        }
        format = codec.format
        decoder = try codec.frameDecoder(data, options: options)
        // Frames of their own sizes (a TIFF's pages) were checked one by one, and together, by the decoder.
        if !decoder.framesHaveTheirOwnSizes {
            try options.checkAnimation(
                width: decoder.canvasWidth, height: decoder.canvasHeight, frameCount: decoder.frameCount)
        }
    }

    /// The next frame, or `nil` after the last. In lenient mode a damaged or truncated frame ends the
    /// animation after the last complete one, and that frame's image carries a ``DecodeWarning``.
    public func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        try decoder.nextFrame()
    }

    /// Every remaining frame.
    public func allFrames() throws(ImageDecodingError) -> [AnimationFrame] {
        var frames: [AnimationFrame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }
}

/// A codec's frame-by-frame decoder over bytes it owns (internal; ``AnimationReader`` is the public face).
protocol FrameDecoder: AnyObject {
    /// The canvas width.
    var canvasWidth: Int { get }
    /// The canvas height.
    var canvasHeight: Int { get }
    /// The declared frame count.
    var frameCount: Int { get }
    /// The loop count, 0 for forever.
    var loopCount: Int { get }
    /// The next composited frame, or `nil` after the last.
    func nextFrame() throws(ImageDecodingError) -> AnimationFrame?
    /// Whether frames may differ in size (a TIFF's pages): the decoder then checks each frame against the
    /// pixel limit and their sum against the animation limit itself, before any frame.
    var framesHaveTheirOwnSizes: Bool { get }
}

extension FrameDecoder {
    var framesHaveTheirOwnSizes: Bool { false }
}

/// A still image as a one-frame animation: what codecs without animation give ``AnimationReader``.
final class StillFrameDecoder: FrameDecoder {
    private var image: Image?
    let canvasWidth: Int
    let canvasHeight: Int
    var frameCount: Int { 1 }
    var loopCount: Int { 0 }

    /// The one frame, decoded at once (the pixel limit applies as for ``Image/init(data:options:)``).
    init(_ image: Image) {
        self.image = image
        canvasWidth = image.width
        canvasHeight = image.height
    }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard let image else { return nil }
        self.image = nil
        return AnimationFrame(index: 0, image: image, duration: .zero)
    }
}
