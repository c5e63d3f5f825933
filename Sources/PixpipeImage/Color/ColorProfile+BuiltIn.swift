import CLibLCMS2

extension ColorProfile {
    /// sRGB (IEC 61966-2-1), Little CMS's own construction.
    public static let sRGB = built("sRGB IEC61966-2.1") { cmsCreate_sRGBProfile() }

    /// Display P3: DCI-P3 primaries (red 0.680/0.320, green 0.265/0.690, blue 0.150/0.060), D65 white,
    /// the sRGB transfer curve.
    public static let displayP3 = rgb(
        "Display P3", red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), curve: sRGBCurve)

    /// Adobe RGB (1998): primaries red 0.64/0.33, green 0.21/0.71, blue 0.15/0.06, D65 white, gamma 563/256
    /// (2.19921875), as its published specification gives them.
    public static let adobeRGB = rgb(
        "Adobe RGB (1998)", red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
        curve: { cmsBuildGamma(nil, 563.0 / 256.0) })

    /// Gray with gamma 2.2 and a D50 white.
    public static let gray = built("Gray Gamma 2.2") {
        grayProfile(curve: { cmsBuildGamma(nil, 2.2) })
    }

    /// Gray with the sRGB transfer curve: what a gray image converted to sRGB (or Display P3, which shares
    /// the curve) becomes, so it keeps one channel.
    static let sRGBGray = built("sRGB Gray") { grayProfile(curve: sRGBCurve) }

    /// Gray with Adobe RGB's gamma: what a gray image converted to Adobe RGB becomes.
    static let adobeRGBGray = built("Adobe RGB (1998) Gray") {
        grayProfile(curve: { cmsBuildGamma(nil, 563.0 / 256.0) })
    }

    /// The sRGB transfer curve as an ICC parametric curve of type 4: gamma 2.4, a = 1/1.055,
    /// b = 0.055/1.055, c = 1/12.92, d = 0.04045.
    static func sRGBCurve() -> OpaquePointer? {
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, parameters)
    }

    /// 2026-01-01 00:00:00 as an ICC dateTimeNumber (six big-endian 16-bit fields): the built-ins' date.
    private static let fixedCreationDate: [UInt8] = [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]

    /// The D65 white point as chromaticities.
    private static let d65 = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)

    /// An RGB matrix-shaper profile with a D65 white, the given primaries (x, y) and one curve for all three.
    private static func rgb(
        _ description: String, red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        curve makeCurve: () -> OpaquePointer?
    ) -> ColorProfile {
        built(description) {
            guard let curve = makeCurve() else { return nil }
            defer { cmsFreeToneCurve(curve) }
            var white = d65
            var primaries = cmsCIExyYTRIPLE(
                Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
                Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
            let curves: [OpaquePointer?] = [curve, curve, curve]
            return cmsCreateRGBProfile(&white, &primaries, curves)
        }
    }

    /// A gray profile with a D50 white and the given curve.
    private static func grayProfile(curve makeCurve: () -> OpaquePointer?) -> cmsHPROFILE? {
        guard let curve = makeCurve() else { return nil }
        defer { cmsFreeToneCurve(curve) }
        return cmsCreateGrayProfile(cmsD50_xyY(), curve)
    }

    /// The profile `make` builds, with `description` written into it, serialized with a fixed creation date
    /// and parsed back.
    ///
    /// Little CMS stamps the current time into the header (bytes 24 to 35); a fixed date makes every process
    /// build the same bytes, so outputs are reproducible and equal profiles compare equal across runs. The
    /// profile ID (bytes 84 to 99) is left zero, "not computed", so the date is not part of any checksum.
    /// Built from constants, so a failure is a broken Little CMS installation, not bad input: it stops.
    static func built(_ description: String, _ make: () -> cmsHPROFILE?) -> ColorProfile {
        guard let handle = make() else { preconditionFailure("Little CMS could not build the \(description) profile") }
        let profile = LCMSProfile(owning: handle)
        if let text = cmsMLUalloc(nil, 1) {
            cmsMLUsetASCII(text, "en", "US", description)
            cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
            cmsMLUfree(text)
        }
        var bytes = profile.iccData()
        if bytes.count >= 36 { bytes.replaceSubrange(24..<36, with: fixedCreationDate) }
        do {
            return try ColorProfile(iccData: bytes)
        } catch {
            preconditionFailure("Little CMS wrote a \(description) profile it cannot read: \(error)")
        }
    }
}
