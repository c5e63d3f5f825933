import Foundation
import Pixpipe

/// `thumbnail --animated` for an input of several frames: every frame resized with the same geometry (the
/// canvas is one size, so every frame gets the same plan) and encoded as one animation, delays and loop count
/// kept.
///
/// Frames are decoded one at a time and only their thumbnails are kept, since the encoder takes them all at
/// once.
struct AnimationThumbnailer {
    /// Size, mode, filter and limits, as for a still thumbnail.
    let options: ThumbnailOptions
    /// The encoding; its format must hold animations (``ImageFormat/canEncodeAnimation``).
    let encoding: ImageEncoding
    /// The most frames an input may declare (`--max-frames`); `nil` for no limit.
    var frameLimit: Int? = DecodeOptions.defaultFrameLimit
    /// What is done to each resized frame before encoding (`--background`, the location dropped).
    var finishing: @Sendable (Image) -> Image = { $0 }

    /// The encoded animation, its size and the decoder's warnings.
    struct Result {
        /// The encoded file.
        let data: Data
        /// The thumbnail width.
        let width: Int
        /// The thumbnail height.
        let height: Int
        /// The warnings of every frame, each once.
        let warnings: [DecodeWarning]
    }

    /// The animated thumbnail of the image in `data`.
    func thumbnail(data: Data) throws -> Result {
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: options.byteLimit, strictness: options.strictness,
            frameLimit: frameLimit)
        let reader = try AnimationReader(data: data, options: decodeOptions)
        let thumbnailer = Thumbnailer(options)
        let (frames, warnings) = try reader.transformedFrames { image in finishing(try thumbnailer.thumbnail(of: image))
        }
        let data = try encoding.encodeAnimation(frames, loopCount: reader.loopCount)
        return Result(
            data: data, width: frames.first?.image.width ?? 0, height: frames.first?.image.height ?? 0,
            warnings: warnings)
    }
}
