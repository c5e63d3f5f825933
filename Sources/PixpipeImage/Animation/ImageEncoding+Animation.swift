import Foundation

extension ImageEncoding {
    /// Encodes `frames` as one animation in this encoding's format, with `loopCount` (0 = forever).
    ///
    /// Every frame must have the first frame's size. Formats without animation throw
    /// ``ImageEncodingError/unsupportedFormat(_:)``; check ``ImageFormat/canEncodeAnimation`` first.
    public func encodeAnimation(_ frames: [AnimationFrame], loopCount: Int = 0) throws(ImageEncodingError) -> Data {
        guard let codec = ImageCodecs.codec(for: format), codec.canEncodeAnimation else {
            throw .unsupportedFormat(format)
        }
        guard let first = frames.first else { throw .invalidOption("an animation needs at least one frame") }
        for frame in frames where frame.image.width != first.image.width || frame.image.height != first.image.height {
            throw .invalidOption(
                "frame \(frame.index) is \(frame.image.width)x\(frame.image.height), "
                    + "not the canvas size \(first.image.width)x\(first.image.height)")
        }
        return try codec.encodeAnimation(frames, loopCount: loopCount, options: options)
    }
}

extension ImageFormat {
    /// Whether ``ImageEncoding/encodeAnimation(_:loopCount:)`` writes animations in this format.
    public var canEncodeAnimation: Bool { ImageCodecs.codec(for: self)?.canEncodeAnimation ?? false }
}
