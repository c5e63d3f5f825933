import CLibLCMS2
import Foundation

extension ColorProfile {
    /// A generic press CMYK profile for CMYK files that carry none, made by Little CMS from a printing model.
    ///
    /// Not a measured press profile: a model of offset printing on coated paper, built from the aim values
    /// ISO 12647-2 gives for paper type 1 (paper, the solid inks and their overprints, as CIELAB D50) with the
    /// Demichel mix of the 16 Neugebauer primaries, black as a multiplicative filter over the colour inks, and
    /// a Yule-Nielsen factor of 2 for dot gain. Colours are media-relative (paper maps to white). Only the
    /// device-to-PCS direction (AToB0) is made: it is used to read CMYK, never to write it.
    static let genericCMYK = built("Generic press CMYK (ISO 12647-2 paper type 1 model)") { GenericCMYK.make() }
}

/// The printing model behind ``ColorProfile/genericCMYK``.
enum GenericCMYK {
    /// The Yule-Nielsen factor: how much a printed dot spreads light, which darkens mid-tones (dot gain).
    static let yuleNielsen = 2.0
    /// CLUT points per ink: 11 (every 10%), a 14,641-node table of about 88 KB.
    static let gridPoints: UInt32 = 11

    /// CIELAB D50 of paper, solids and overprints (ISO 12647-2 paper type 1 aims), indexed by the bits
    /// cyan 1, magenta 2, yellow 4.
    private static let primariesLab: [(Double, Double, Double)] = [
        (95, 0, -2),  // paper
        (55, -37, -50),  // cyan
        (48, 74, -3),  // magenta
        (24, 22, -46),  // cyan + magenta (blue)
        (89, -5, 93),  // yellow
        (50, -65, 27),  // cyan + yellow (green)
        (47, 68, 48),  // magenta + yellow (red)
        (23, 0, 0),  // cyan + magenta + yellow
    ]
    /// Black ink alone.
    private static let blackLab = (16.0, 0.0, 0.0)

    /// The primaries as media-relative XYZ (paper = D50), each channel raised to 1/n for Yule-Nielsen:
    /// 8 without black, then the same 8 under black.
    private static let primaries: [[Double]] = {
        func xyz(_ lab: (Double, Double, Double)) -> [Double] {
            var value = cmsCIELab(L: lab.0, a: lab.1, b: lab.2)
            var result = cmsCIEXYZ()
            cmsLab2XYZ(nil, &result, &value)
            return [result.X, result.Y, result.Z]
        }
        let paper = xyz(primariesLab[0])
        let d50 = cmsD50_XYZ().pointee
        let white = [d50.X, d50.Y, d50.Z]
        let black = xyz(blackLab)
        // Relative to paper, then scaled to D50: the paper becomes the PCS white.
        let relative = primariesLab.map { lab in (0..<3).map { xyz(lab)[$0] / paper[$0] * white[$0] } }
        let underBlack = relative.map { colour in (0..<3).map { colour[$0] * black[$0] / paper[$0] } }
        return (relative + underBlack).map { colour in colour.map { pow(max($0, 0), 1 / yuleNielsen) } }
    }()

    /// Media-relative XYZ of ink amounts `c`, `m`, `y`, `k` (0 no ink, 1 solid).
    static func xyz(c: Double, m: Double, y: Double, k: Double) -> [Double] {
        var sum = [0.0, 0.0, 0.0]
        for index in 0..<16 {
            let inks = index & 7
            var weight = (inks & 1 != 0 ? c : 1 - c) * (inks & 2 != 0 ? m : 1 - m) * (inks & 4 != 0 ? y : 1 - y)
            weight *= index >= 8 ? k : 1 - k
            guard weight > 0 else { continue }
            for channel in 0..<3 { sum[channel] += weight * primaries[index][channel] }
        }
        return sum.map { pow($0, yuleNielsen) }
    }

    /// The profile: CMYK output class, Lab PCS, version 4.3, AToB0 an 11^4 CLUT of the model between identity
    /// curves (the shape an ICC v4 lutAtoBType takes).
    static func make() -> cmsHPROFILE? {
        guard let profile = cmsCreateProfilePlaceholder(nil) else { return nil }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ())
        guard let pipeline = cmsPipelineAlloc(nil, 4, 3),
            let table = cmsStageAllocCLut16bit(nil, gridPoints, 4, 3, nil)
        else {
            cmsCloseProfile(profile)
            return nil
        }
        defer { cmsPipelineFree(pipeline) }
        cmsStageSampleCLut16bit(
            table,
            { input, output, _ in
                guard let input, let output else { return 0 }
                let ink = (0..<4).map { Double(input[$0]) / 65535 }
                let value = GenericCMYK.xyz(c: ink[0], m: ink[1], y: ink[2], k: ink[3])
                var xyz = cmsCIEXYZ(X: value[0], Y: value[1], Z: value[2])
                var lab = cmsCIELab()
                cmsXYZ2Lab(nil, &lab, &xyz)
                var encoded: (UInt16, UInt16, UInt16) = (0, 0, 0)
                withUnsafeMutableBytes(of: &encoded) {
                    cmsFloat2LabEncoded($0.baseAddress!.assumingMemoryBound(to: UInt16.self), &lab)
                }
                output[0] = encoded.0
                output[1] = encoded.1
                output[2] = encoded.2
                return 1
            }, nil, 0)
        cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, table)
        cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, cmsStageAllocToneCurves(nil, 4, nil))
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        return profile
    }
}
