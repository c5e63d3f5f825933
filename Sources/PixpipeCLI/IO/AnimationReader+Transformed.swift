import Pixpipe

extension AnimationReader {
    /// Every remaining frame, `transform` applied to each image as soon as it is decoded (so only the
    /// transformed frames are kept), with the warnings of every frame, each once.
    func transformedFrames(
        _ transform: (Image) throws -> Image
    ) throws -> (frames: [AnimationFrame], warnings: [DecodeWarning]) {
        var frames: [AnimationFrame] = []
        var warnings: [DecodeWarning] = []
        while var frame = try nextFrame() {
            warnings += frame.image.metadata.warnings.filter { !warnings.contains($0) }
            frame.image = try transform(frame.image)
            frames.append(frame)
        }
        return (frames, warnings)
    }

    /// Frame (or page) `index`, from 0; the frames before it are decoded and dropped, because each may be
    /// drawn on the one before. Throws ``FrameOutOfRange`` past the last frame.
    func frame(at index: Int) throws -> AnimationFrame {
        guard index < frameCount else { throw FrameOutOfRange(index: index, frameCount: frameCount) }
        var read = 0
        while let frame = try nextFrame() {
            read += 1
            if frame.index == index { return frame }
        }
        // Lenient mode ends a damaged animation early: fewer frames than the header declared.
        throw FrameOutOfRange(index: index, frameCount: read)
    }
}
