/// A colour to flatten transparency onto: 8-bit sRGB samples and an alpha (255 opaque).
///
/// ```swift
/// let flat = image.flattened(over: .white)
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

    /// Opaque white, what JPEG output composites over when no colour is given.
    public static let white = BackgroundColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = BackgroundColor(red: 0, green: 0, blue: 0)

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
        let sixteen = pixelFormat.bitsPerSample == 16
        let maxValue = sixteen ? 65535 : 255
        let backgroundSamples = [background.red, background.green, background.blue].map { Int($0) * maxValue / 255 }
        let backgroundAlpha = Int(background.alpha) * maxValue / 255
        let (inChannels, outChannels) = (pixelFormat.channels, target.channels)
        let colorChannels = color ? 3 : 1
        let readsColor = pixelFormat.layout.isColor
        var result = Image(width: width, height: height, pixelFormat: target, metadata: metadata)
        // Integer "over" per sample on the raw buffers: the subscript's checks per sample cost 30 times more.
        func flatten<Sample: FixedWidthInteger>(
            _ input: UnsafeBufferPointer<Sample>, _ output: UnsafeMutableBufferPointer<Sample>
        ) {
            for pixel in 0..<(input.count / inChannels) {
                let base = pixel * inChannels
                let out = pixel * outChannels
                let alpha = Int(input[base + inChannels - 1])
                let backgroundWeight = backgroundAlpha * (maxValue - alpha) / maxValue
                let outAlpha = alpha + backgroundWeight
                for channel in 0..<colorChannels {
                    let source = Int(input[base + (readsColor ? channel : 0)])
                    let mixed =
                        outAlpha == 0
                        ? 0 : (source * alpha + backgroundSamples[channel] * backgroundWeight + outAlpha / 2) / outAlpha
                    output[out + channel] = Sample(truncatingIfNeeded: min(mixed, maxValue))
                }
                if !opaque { output[out + outChannels - 1] = Sample(truncatingIfNeeded: outAlpha) }
            }
        }
        withUnsafeBytes { input in
            result.withUnsafeMutableBytes { output in
                if sixteen {
                    flatten(input.assumingMemoryBound(to: UInt16.self), output.assumingMemoryBound(to: UInt16.self))
                } else {
                    flatten(input.assumingMemoryBound(to: UInt8.self), output.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        return result
    }
}
