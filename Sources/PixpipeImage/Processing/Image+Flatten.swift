/// A colour to flatten transparency onto: 8-bit sRGB samples and an alpha (255 opaque).
///
/// ```swift
/// let flat = image.flattened(over: BackgroundColor(red: 255, green: 255, blue: 255))
/// ```
public struct BackgroundColor: Sendable, Hashable {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) to 255 (opaque, the default).
    public var alpha: UInt8

    /// A colour from its samples.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Whether red, green and blue are equal, so a gray image stays gray over it.
    public var isGray: Bool { red == green && green == blue }
}

extension Image {
    /// The image composited over `background` ("over" in straight alpha, per sample, on the stored values).
    ///
    /// An opaque background gives an image without alpha (gray if both the image and the colour are gray,
    /// else RGB); a translucent one keeps an alpha channel. The bit depth and metadata are kept. An image
    /// without alpha is returned as it is.
    public func flattened(over background: BackgroundColor) -> Image {
        guard pixelFormat.layout.hasAlpha else { return self }
        let opaque = background.alpha == 255
        let color = pixelFormat.layout.isColor || !background.isGray
        let layout: PixelLayout = color ? (opaque ? .rgb : .rgba) : (opaque ? .gray : .grayAlpha)
        let target = PixelFormat(layout: layout, bitsPerSample: pixelFormat.bitsPerSample)
        let maxValue = pixelFormat.bitsPerSample == 16 ? 65535.0 : 255.0
        let backgroundSamples = [background.red, background.green, background.blue].map { Double($0) / 255 * maxValue }
        let backgroundAlpha = Double(background.alpha) / 255
        let inChannels = pixelFormat.channels
        var result = Image(width: width, height: height, pixelFormat: target, metadata: metadata)
        for y in 0..<height {
            for x in 0..<width {
                let alpha = Double(self[x: x, y: y, channel: inChannels - 1]) / maxValue
                let outAlpha = alpha + backgroundAlpha * (1 - alpha)
                for channel in 0..<(color ? 3 : 1) {
                    let source = Double(self[x: x, y: y, channel: pixelFormat.layout.isColor ? channel : 0])
                    let mixed =
                        outAlpha == 0
                        ? 0 : (source * alpha + backgroundSamples[channel] * backgroundAlpha * (1 - alpha)) / outAlpha
                    result[x: x, y: y, channel: channel] = Int(mixed.rounded())
                }
                if !opaque { result[x: x, y: y, channel: target.channels - 1] = Int((outAlpha * maxValue).rounded()) }
            }
        }
        return result
    }
}
