/// A parsed ICC profile: its bytes and the facts Pixpipe uses (colour space, description, sRGB or not).
///
/// ```swift
/// let profile = try ColorProfile(iccData: image.metadata.iccProfile ?? [])
/// print(profile.colorSpace, profile.profileDescription, profile.isSRGB)   // rgb Display P3 false
/// ```
///
/// Built-ins (``sRGB``, ``displayP3``, ``adobeRGB``, ``gray``) are made by Little CMS from the published
/// primaries, white points and transfer curves; no profile file is shipped.
public struct ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// The colour space of a profile's device side.
    public enum Space: String, Sendable, Hashable, Codable {
        /// Red, green, blue.
        case rgb
        /// One gray channel.
        case gray
        /// Cyan, magenta, yellow, black.
        case cmyk
        /// CIE L*a*b*.
        case lab
        /// Any other (XYZ, YCbCr, multi-ink...).
        case other
    }

    /// The ICC bytes.
    public let iccData: [UInt8]
    /// The device colour space.
    public let colorSpace: Space
    /// The profile's description tag (`Display P3`, `Adobe RGB (1998)`), or an empty string.
    public let profileDescription: String
    /// Whether pixels in this profile are already sRGB: an RGB matrix-shaper profile with sRGB's colorants
    /// and transfer curve, or a gray profile with sRGB's curve. Converting them to sRGB changes nothing.
    public let isSRGB: Bool

    /// Parses ICC bytes; bytes Little CMS refuses are ``ImageProcessingError/invalidColorProfile(reason:)``.
    public init(iccData: [UInt8]) throws(ImageProcessingError) {
        let profile = try LCMSProfile(iccData: iccData)
        self.iccData = iccData
        colorSpace = profile.colorSpace
        profileDescription = profile.profileDescription
        isSRGB = SRGBMatch.matches(profile)
    }

    /// The profile's description and colour space: `Display P3 (rgb)`.
    public var description: String { "\(profileDescription.isEmpty ? "unnamed" : profileDescription) (\(colorSpace))" }

    /// Two profiles are equal when their bytes are; the other properties follow from them.
    public static func == (lhs: ColorProfile, rhs: ColorProfile) -> Bool { lhs.iccData == rhs.iccData }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(iccData) }
}
