/// Why an image's colours could not be converted from one ICC profile to another.
public enum ImageColorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ICC profile could not be parsed; `reason` is Little CMS's message.
    case invalidProfile(reason: String)
    /// A valid profile this conversion cannot use: a colour space other than RGB or gray as a target, or a
    /// profile whose colour space does not match the image's channels (an RGB profile on a gray image).
    case unsupportedProfile(colorSpace: String, reason: String)
    /// Little CMS could not build the transform between the two profiles; `reason` is its message.
    case transformFailed(reason: String)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .invalidProfile(let reason): "invalid ICC profile: \(reason)"
        case .unsupportedProfile(let colorSpace, let reason): "unsupported \(colorSpace) ICC profile: \(reason)"
        case .transformFailed(let reason): "colour transform failed: \(reason)"
        }
    }
}

extension ImageColorError {
    /// The code of the benign warning given when a profile cannot be used and the pixels are kept as they
    /// are (a thumbnail's conversion, a CMYK JPEG's decode).
    static let profileIgnoredWarningCode = "color-profile-ignored"

    /// A stable short name of the case: `invalid-color-profile`, `unsupported-color-profile` or
    /// `color-transform-failed`.
    public var shortName: String {
        switch self {
        case .invalidProfile: "invalid-color-profile"
        case .unsupportedProfile: "unsupported-color-profile"
        case .transformFailed: "color-transform-failed"
        }
    }
}
