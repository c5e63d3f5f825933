/// One frame of an animation, composited on the full canvas as browsers show it.
public struct AnimationFrame: Sendable, Hashable {
    /// The frame's position in the animation, from 0.
    public var index: Int
    /// The whole canvas after this frame is drawn (blending and the previous frame's disposal applied).
    public var image: Image
    /// How long the frame is shown.
    public var duration: Duration

    /// A frame.
    public init(index: Int, image: Image, duration: Duration) {
        self.index = index
        self.image = image
        self.duration = duration
    }
}

/// What a header says about an animation, read without decoding its frames.
public struct AnimationInfo: Sendable, Hashable {
    /// How many frames the file holds.
    public var frameCount: Int
    /// How many times the animation plays; 0 means forever.
    public var loopCount: Int
    /// The sum of every frame's duration, where the header gives it without decoding; `nil` otherwise.
    public var duration: Duration?

    /// Animation facts.
    public init(frameCount: Int, loopCount: Int, duration: Duration?) {
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.duration = duration
    }
}
