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
}
