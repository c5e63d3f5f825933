import CLibLCMS2
import PixpipeLocking

extension ColorProfile {
    /// The PNG `gAMA` of sRGB content, 1/2.2 (files store 45455).
    static let sRGBFileGamma = 1 / 2.2
    /// How far a file gamma may be from ``sRGBFileGamma`` and still be read as sRGB: encoders round 1/2.2
    /// differently, and a 1% difference in gamma is below a visible step.
    static let gammaTolerance = 0.005

    /// Profiles made from file gammas, by gamma and gray-or-colour.
    private static let gammaProfiles = Locked([GammaKey: ColorProfile]())

    /// What identifies a gamma profile.
    private struct GammaKey: Hashable {
        let fileGamma: Double
        let gray: Bool
    }

    /// A profile for an untagged PNG whose `gAMA` says `fileGamma` (encoded = linear^fileGamma): sRGB
    /// primaries and D65 white (PNG's default when there is no `cHRM`) with a pure power curve of
    /// 1/`fileGamma`; gray when `gray`. `nil` for a gamma outside 0.05...20, which no real file means.
    static func gammaProfile(fileGamma: Double, gray: Bool) -> ColorProfile? {
        guard fileGamma >= 0.05, fileGamma <= 20 else { return nil }
        let key = GammaKey(fileGamma: fileGamma, gray: gray)
        if let known = gammaProfiles.withLock({ $0[key] }) { return known }
        let exponent = 1 / fileGamma
        let profile = built("Gamma \(exponent)\(gray ? " Gray" : "")") {
            guard let curve = cmsBuildGamma(nil, exponent) else { return nil }
            defer { cmsFreeToneCurve(curve) }
            if gray { return cmsCreateGrayProfile(cmsD50_xyY(), curve) }
            var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
            var primaries = cmsCIExyYTRIPLE(
                Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
            let curves: [OpaquePointer?] = [curve, curve, curve]
            return cmsCreateRGBProfile(&white, &primaries, curves)
        }
        gammaProfiles.withLock { profiles in
            if profiles.count >= ColorTransformCache.capacity { profiles.removeAll() }
            profiles[key] = profile
        }
        return profile
    }
}
