/// The channels stored for each pixel, in memory order.
public enum PixelLayout: String, Sendable, Hashable, CaseIterable, Codable {
    /// One luminance channel.
    case gray
    /// Luminance followed by alpha.
    case grayAlpha
    /// Red, green, blue.
    case rgb
    /// Red, green, blue, alpha (straight, not premultiplied).
    case rgba

    /// The number of channels per pixel.
    public var channels: Int {
        switch self {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// Whether the last channel is alpha.
    public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }

    /// Whether the layout carries colour (three colour channels).
    public var isColor: Bool { self == .rgb || self == .rgba }

    /// The layout with the given channel count, if any.
    public init?(channels: Int) {
        switch channels {
        case 1: self = .gray
        case 2: self = .grayAlpha
        case 3: self = .rgb
        case 4: self = .rgba
        default: return nil
        }
    }
}

/// How pixels are stored in an ``Image``: a channel layout and the bits per sample.
///
/// Samples are 8 bits (`UInt8`) or 16 bits (`UInt16` in the machine's native byte order).
public struct PixelFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The channels per pixel.
    public var layout: PixelLayout
    /// Bits per sample: 8 or 16.
    public var bitsPerSample: Int

    /// A pixel format; `bitsPerSample` must be 8 or 16.
    public init(layout: PixelLayout, bitsPerSample: Int = 8) {
        precondition(bitsPerSample == 8 || bitsPerSample == 16, "bitsPerSample must be 8 or 16")
        self.layout = layout
        self.bitsPerSample = bitsPerSample
    }

    /// 8-bit gray.
    public static let gray8 = PixelFormat(layout: .gray)
    /// 8-bit gray with alpha.
    public static let grayAlpha8 = PixelFormat(layout: .grayAlpha)
    /// 8-bit RGB.
    public static let rgb8 = PixelFormat(layout: .rgb)
    /// 8-bit RGBA.
    public static let rgba8 = PixelFormat(layout: .rgba)

    /// The number of channels per pixel.
    public var channels: Int { layout.channels }
    /// Bytes per sample: 1 or 2.
    public var bytesPerSample: Int { bitsPerSample / 8 }
    /// Bytes per pixel.
    public var bytesPerPixel: Int { channels * bytesPerSample }

    /// A short name such as `rgba8` or `gray16`.
    public var description: String { "\(layout.rawValue)\(bitsPerSample)" }
}
