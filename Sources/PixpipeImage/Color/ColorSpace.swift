/// The colour space an image is converted to: a built-in profile or one given.
///
/// ```swift
/// let web = try photo.converted(toColorSpace: .sRGB)
/// let wide = try photo.converted(toColorSpace: .profile(try ColorProfile(iccData: bytes)))
/// ```
public enum ColorSpace: Sendable, Hashable, CustomStringConvertible {
    /// sRGB (IEC 61966-2-1), what an untagged image is taken to be.
    case sRGB
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB transfer curve (iPhone photos).
    case displayP3
    /// Adobe RGB (1998): wider greens, D65 white, gamma 563/256 (many cameras).
    case adobeRGB
    /// Gray with gamma 2.2 and a D50 white: colour images become one channel.
    case gray
    /// The colour space of a given ICC profile (RGB or gray).
    case profile(ColorProfile)

    /// The profile of the space.
    public var profile: ColorProfile {
        switch self {
        case .sRGB: .sRGB
        case .displayP3: .displayP3
        case .adobeRGB: .adobeRGB
        case .gray: .gray
        case .profile(let profile): profile
        }
    }

    /// `srgb`, `p3`, `adobergb`, `gray`, or `profile(DESCRIPTION)`: the names the command line takes.
    public var description: String {
        switch self {
        case .sRGB: "srgb"
        case .displayP3: "p3"
        case .adobeRGB: "adobergb"
        case .gray: "gray"
        case .profile(let profile): "profile(\(profile.profileDescription))"
        }
    }
}

/// How ``Image/converted(toColorSpace:options:)`` converts.
public struct ColorConversionOptions: Sendable, Hashable {
    /// The rendering intent. Default perceptual.
    public var intent: RenderingIntent
    /// Map the source's black point to the target's (Little CMS's black-point compensation), so shadow
    /// detail is neither clipped nor washed out; meant for relative colorimetric. Off by default.
    public var blackPointCompensation: Bool
    /// Whether an sRGB result carries the sRGB profile. On by default; off, an sRGB result has no profile
    /// (what thumbnails for the web want: untagged means sRGB, and the profile's bytes are saved). Other
    /// targets always embed their profile, without which their pixels would be read as sRGB.
    public var embedsSRGBProfile: Bool

    /// Options; every argument has the documented default.
    public init(
        intent: RenderingIntent = .perceptual, blackPointCompensation: Bool = false, embedsSRGBProfile: Bool = true
    ) {
        self.intent = intent
        self.blackPointCompensation = blackPointCompensation
        self.embedsSRGBProfile = embedsSRGBProfile
    }
}
