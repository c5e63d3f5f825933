import CLibLCMS2
import Foundation

/// Whether a profile describes sRGB: the test that lets sRGB-tagged images skip the transform.
///
/// Profiles named sRGB differ in their bytes (v2 or v4, table or parametric curves, vendor tags), so the
/// test compares what matters: an RGB matrix-shaper's three colorants (already adapted to D50) within
/// ``colorantTolerance`` of Little CMS's own sRGB, and every curve within ``curveTolerance`` of the sRGB
/// curve at 33 points. A gray profile matches when its curve does.
enum SRGBMatch {
    /// The largest difference of a colorant's X, Y or Z: about what rounding in different vendors' profiles
    /// leaves, far below the difference to any other common space (Adobe RGB's green differs by 0.05).
    static let colorantTolerance = 0.002
    /// The largest difference of a curve's output (0...1): 0.6 of an 8-bit step.
    static let curveTolerance: Float = 0.0025

    /// Whether `profile` describes sRGB (or sRGB's gray).
    static func matches(_ profile: LCMSProfile) -> Bool {
        switch profile.colorSpace {
        case .rgb:
            guard cmsIsMatrixShaper(profile.handle) != 0 else { return false }
            let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
            for (tag, expected) in zip(tags, referenceColorants) {
                guard let xyz = profile.xyz(tag) else { return false }
                let found = [xyz.X, xyz.Y, xyz.Z]
                if zip(found, expected).contains(where: { abs($0 - $1) > colorantTolerance }) { return false }
            }
            return [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].allSatisfy {
                curveMatches(profile.toneCurve($0))
            }
        case .gray:
            return curveMatches(profile.toneCurve(cmsSigGrayTRCTag))
        default:
            return false
        }
    }

    /// Whether `curve` is the sRGB curve.
    private static func curveMatches(_ curve: OpaquePointer?) -> Bool {
        guard let curve else { return false }
        return (0...32).allSatisfy { step in
            let value = Float(step) / 32
            return abs(cmsEvalToneCurveFloat(curve, value) - sRGBDecode(value)) <= curveTolerance
        }
    }

    /// The sRGB curve from encoded value to linear light.
    private static func sRGBDecode(_ value: Float) -> Float {
        value <= 0.04045 ? value / 12.92 : powf((value + 0.055) / 1.055, 2.4)
    }

    /// Little CMS's sRGB colorants (X, Y, Z of red, green, blue), read once.
    private static let referenceColorants: [[Double]] = {
        guard let handle = cmsCreate_sRGBProfile() else { return [] }
        let profile = LCMSProfile(owning: handle)
        return [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].map { tag in
            profile.xyz(tag).map { [$0.X, $0.Y, $0.Z] } ?? [.nan, .nan, .nan]
        }
    }()
}
