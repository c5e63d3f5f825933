import CLibLCMS2
import PixpipeLocking

extension ColorProfile {
    /// The PNG `gAMA` of sRGB content, 1/2.2 (files store 45455).
    static let sRGBFileGamma = 1 / 2.2
    /// How far a file gamma may be from ``sRGBFileGamma`` and still be read as sRGB: encoders round 1/2.2
    /// differently, and a 1% difference in gamma is below a visible step.
    static let gammaTolerance = 0.005

    /// Profiles made from PNG chunks, by what they were made from.
    private static let pngProfiles = Locked([PNGKey: ColorProfile]())

    /// What identifies a profile made from PNG chunks.
    private struct PNGKey: Hashable {
        let fileGamma: Double?
        let chromaticities: ImageMetadata.Chromaticities?
        let gray: Bool
    }

    /// The profile an untagged PNG's `gAMA` and `cHRM` describe, or `nil` when they describe sRGB (or nothing).
    ///
    /// A file gamma within ``gammaTolerance`` of 1/2.2 and sRGB's chromaticities (or none) are sRGB. Otherwise:
    /// the `cHRM` white point and primaries (sRGB's when absent) with a pure power curve of 1/`fileGamma` (the
    /// sRGB curve when `gAMA` is absent); gray images only use the curve. A gamma outside 0.05...20, which no
    /// real file means, or chromaticities Little CMS cannot make a matrix of are ignored.
    static func pngProfile(
        fileGamma: Double?, chromaticities: ImageMetadata.Chromaticities?, gray: Bool
    ) -> ColorProfile? {
        let gamma = fileGamma.flatMap { (0.05...20).contains($0) ? $0 : nil }
        let gammaIsSRGB = gamma.map { abs($0 - sRGBFileGamma) <= gammaTolerance } ?? true
        let primaries = gray ? nil : chromaticities.flatMap { $0.isSRGB() ? nil : $0 }
        guard !gammaIsSRGB || primaries != nil else { return nil }
        let key = PNGKey(fileGamma: gammaIsSRGB ? nil : gamma, chromaticities: primaries, gray: gray)
        if let known = pngProfiles.withLock({ $0[key] }) { return known }
        let profile = makePNGProfile(key)
        pngProfiles.withLock { profiles in
            if profiles.count >= ColorTransformCache.capacity { profiles.removeAll() }
            profiles[key] = profile
        }
        return profile
    }

    /// Builds the profile `key` names; `nil` when Little CMS refuses the chromaticities.
    private static func makePNGProfile(_ key: PNGKey) -> ColorProfile? {
        let curve = { () -> OpaquePointer? in
            key.fileGamma.map { cmsBuildGamma(nil, 1 / $0) } ?? sRGBCurve()
        }
        let name = "PNG " + (key.fileGamma.map { "gamma \(1 / $0)" } ?? "sRGB curve")
        if key.gray {
            return built(name + " Gray") {
                guard let made = curve() else { return nil }
                defer { cmsFreeToneCurve(made) }
                return cmsCreateGrayProfile(cmsD50_xyY(), made)
            }
        }
        let c = key.chromaticities ?? .sRGB
        var white = cmsCIExyY(x: c.whiteX, y: c.whiteY, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: c.redX, y: c.redY, Y: 1), Green: cmsCIExyY(x: c.greenX, y: c.greenY, Y: 1),
            Blue: cmsCIExyY(x: c.blueX, y: c.blueY, Y: 1))
        // Chromaticities from a file can be degenerate (collinear primaries, y = 0): Little CMS refuses them.
        guard let made = curve() else { return nil }
        defer { cmsFreeToneCurve(made) }
        let curves: [OpaquePointer?] = [made, made, made]
        let handle = LCMS.call { cmsCreateRGBProfile(&white, &primaries, curves) }.result
        guard let handle else { return nil }
        return built(name + " cHRM") { handle }
    }
}
