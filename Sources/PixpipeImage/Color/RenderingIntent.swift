import CLibLCMS2

/// How colours outside the target's gamut are brought into it (the ICC rendering intents).
///
/// Matrix-shaper profiles (sRGB, Display P3, Adobe RGB and most camera profiles) carry no perceptual
/// tables, so for them perceptual and relative colorimetric give the same result: in-gamut colours are
/// kept, the rest clipped.
public enum RenderingIntent: String, Sendable, Hashable, CaseIterable {
    /// The profile's perceptual rendering: the whole gamut compressed to fit. The default.
    case perceptual
    /// In-gamut colours kept exactly (relative to the white point), the rest clipped.
    case relativeColorimetric
    /// Saturation kept at the cost of hue accuracy (business graphics).
    case saturation
    /// Colours kept exactly including the white point (proofing).
    case absoluteColorimetric

    /// Little CMS's code of the intent.
    var lcmsCode: UInt32 {
        switch self {
        case .perceptual: UInt32(INTENT_PERCEPTUAL)
        case .relativeColorimetric: UInt32(INTENT_RELATIVE_COLORIMETRIC)
        case .saturation: UInt32(INTENT_SATURATION)
        case .absoluteColorimetric: UInt32(INTENT_ABSOLUTE_COLORIMETRIC)
        }
    }
}
