/// A colour conversion as a value: the target and how to get there, what a thumbnail applies.
///
/// ```swift
/// var options = ThumbnailOptions(size: .box(256))
/// options.colorConversion = ColorConversion(target: .displayP3)   // P3 thumbnails, profile embedded
/// options.colorConversion = nil                                    // source profile and pixels kept
/// ```
public struct ColorConversion: Sendable, Hashable {
    /// The colour space converted to.
    public var target: ColorSpace
    /// Intent, black-point compensation, and whether an sRGB result carries its profile.
    public var options: ColorConversionOptions

    /// A conversion to `target`.
    public init(target: ColorSpace, options: ColorConversionOptions = .init()) {
        self.target = target
        self.options = options
    }

    /// To sRGB with no profile in the result: what browsers and most consumers assume of an untagged image,
    /// and the thumbnailer's default.
    public static let untaggedSRGB = ColorConversion(target: .sRGB, options: .init(embedsSRGBProfile: false))

    /// `TARGET,intent:I,bpc:B,srgb-profile:B`, TARGET being `srgb`, `p3`, `adobergb`, `gray` or
    /// `profile:HASH` (a 64-bit FNV-1a of the profile's bytes): a cache key part naming every parameter.
    public var identifier: String {
        let target =
            switch self.target {
            case .profile(let profile): "profile:\(String(Self.fnv1a(profile.iccData), radix: 16))"
            default: self.target.description
            }
        return "\(target),intent:\(options.intent.rawValue),bpc:\(options.blackPointCompensation)"
            + ",srgb-profile:\(options.embedsSRGBProfile)"
    }

    /// 64-bit FNV-1a: a short stable name for a profile's bytes (not a security digest; a cache key part).
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
