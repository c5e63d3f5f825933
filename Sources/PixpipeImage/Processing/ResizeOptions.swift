/// How a resize treats colour and how many cores it may use.
public struct ResizeOptions: Sendable, Hashable {
    /// Resample in linear light: sRGB samples are decoded to linear, filtered, and encoded again.
    ///
    /// Off by default, like most tools: filtering the stored values directly is faster and what users
    /// compare against, but linear light keeps fine bright-on-dark detail at its true brightness.
    public var linearLight: Bool
    /// The most worker threads one resize uses; `nil` means one per active core.
    ///
    /// A batch that already resizes several images at once can set 1 to avoid oversubscription.
    public var maximumConcurrency: Int?

    /// Options; the defaults filter stored values on every core.
    public init(linearLight: Bool = false, maximumConcurrency: Int? = nil) {
        self.linearLight = linearLight
        self.maximumConcurrency = maximumConcurrency
    }
}
