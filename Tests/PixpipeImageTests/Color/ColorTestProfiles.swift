import CLibLCMS2
import Foundation
import PixpipeImage

/// Profiles and measurements for the colour tests, made with Little CMS directly (not through Pixpipe), so
/// the library is checked against an independent construction.
enum ColorTestProfiles {
    /// The sRGB transfer curve as an ICC parametric curve of type 4.
    private static func sRGBCurve() -> OpaquePointer? {
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, parameters)
    }

    /// An RGB profile with a D65 white, primaries (x, y) and one curve, named `name` (so tests that must not
    /// share cache entries with others use their own bytes).
    static func rgb(
        _ name: String, red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        gamma: Double? = nil
    ) -> [UInt8] {
        let curve = gamma.map { cmsBuildGamma(nil, $0) } ?? sRGBCurve()
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        let curves: [OpaquePointer?] = [curve, curve, curve]
        return save(cmsCreateRGBProfile(&white, &primaries, curves)!, name: name)
    }

    /// Display P3 (DCI-P3 primaries, D65, sRGB curve).
    static func displayP3(_ name: String = "Test Display P3") -> [UInt8] {
        rgb(name, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
    }

    /// Adobe RGB (1998).
    static func adobeRGB(_ name: String = "Test Adobe RGB") -> [UInt8] {
        rgb(name, red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), gamma: 563.0 / 256.0)
    }

    /// Little CMS's sRGB under another name.
    static func sRGB(_ name: String) -> [UInt8] { save(cmsCreate_sRGBProfile()!, name: name) }

    /// A gray profile with a D50 white and a pure gamma.
    static func gray(gamma: Double, name: String) -> [UInt8] {
        let curve = cmsBuildGamma(nil, gamma)
        defer { cmsFreeToneCurve(curve) }
        return save(cmsCreateGrayProfile(cmsD50_xyY(), curve)!, name: name)
    }

    /// `profile` with its description set to `name`, serialized, and closed.
    private static func save(_ profile: cmsHPROFILE, name: String) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        let text = cmsMLUalloc(nil, 1)!
        cmsMLUsetASCII(text, "en", "US", name)
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
        cmsMLUfree(text)
        var size: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        bytes.withUnsafeMutableBytes { _ = cmsSaveProfileToMem(profile, $0.baseAddress, &size) }
        return bytes
    }

    /// `image`'s pixels (colour channels only) moved from the profile `from` to the profile `to` by Little CMS,
    /// relative colorimetric, alpha copied: how a camera or phone would have written them.
    static func transform(_ image: Image, from: [UInt8], to: [UInt8]) -> Image {
        let source = open(from)
        let target = open(to)
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(target)
        }
        let format = pixelType(image.pixelFormat)
        let transform = cmsCreateTransform(
            source, format, target, format, UInt32(INTENT_RELATIVE_COLORIMETRIC),
            UInt32(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE))!
        defer { cmsDeleteTransform(transform) }
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.withUnsafeBytes { input in
            pixels.withUnsafeMutableBytes { output in
                cmsDoTransform(transform, input.baseAddress, output.baseAddress, UInt32(image.pixelCount))
            }
        }
        var result = Image(width: image.width, height: image.height, pixelFormat: image.pixelFormat, pixels: pixels)
        result.metadata.iccProfile = to
        return result
    }

    /// Mean and largest CIEDE2000 difference between two RGB images, both read as sRGB (alpha ignored).
    static func deltaE2000(_ first: Image, _ second: Image) -> (mean: Double, max: Double) {
        let first = lab(first)
        let second = lab(second)
        var total = 0.0
        var largest = 0.0
        for pixel in 0..<(first.count / 3) {
            var a = cmsCIELab(L: first[pixel * 3], a: first[pixel * 3 + 1], b: first[pixel * 3 + 2])
            var b = cmsCIELab(L: second[pixel * 3], a: second[pixel * 3 + 1], b: second[pixel * 3 + 2])
            let difference = cmsCIE2000DeltaE(&a, &b, 1, 1, 1)
            total += difference
            largest = max(largest, difference)
        }
        return (total / Double(first.count / 3), largest)
    }

    /// The image's sRGB pixels as L*a*b* (D50), three doubles per pixel.
    static func lab(_ image: Image) -> [Double] {
        let sRGB = cmsCreate_sRGBProfile()!
        let labProfile = cmsCreateLab4Profile(nil)!
        defer {
            cmsCloseProfile(sRGB)
            cmsCloseProfile(labProfile)
        }
        // TYPE_Lab_DBL: FLOAT_SH(1) | COLORSPACE_SH(PT_Lab) | CHANNELS_SH(3) | BYTES_SH(0).
        let labDouble = UInt32(1 << 22 | Int(PT_Lab) << 16 | 3 << 3)
        let transform = cmsCreateTransform(
            sRGB, pixelType(image.pixelFormat), labProfile, labDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC),
            UInt32(cmsFLAGS_NOCACHE))!
        defer { cmsDeleteTransform(transform) }
        var values = [Double](repeating: 0, count: image.pixelCount * 3)
        image.withUnsafeBytes { input in
            values.withUnsafeMutableBytes { output in
                cmsDoTransform(transform, input.baseAddress, output.baseAddress, UInt32(image.pixelCount))
            }
        }
        return values
    }

    /// The Little CMS format code of an RGB, RGBA, gray or gray+alpha pixel format.
    static func pixelType(_ format: PixelFormat) -> UInt32 {
        let color = format.layout.isColor
        let space = UInt32(color ? PT_RGB : PT_GRAY)
        let extra: UInt32 = format.layout.hasAlpha ? 1 : 0
        return space << 16 | extra << 7 | UInt32(color ? 3 : 1) << 3 | UInt32(format.bytesPerSample)
    }

    /// An open profile from bytes.
    private static func open(_ bytes: [UInt8]) -> cmsHPROFILE {
        bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count))! }
    }

    /// The alpha samples of an image (as bytes).
    static func alphaBytes(_ image: Image) -> [UInt8] {
        let format = image.pixelFormat
        precondition(format.layout.hasAlpha)
        var bytes: [UInt8] = []
        let stride = format.bytesPerPixel
        let offset = (format.channels - 1) * format.bytesPerSample
        for pixel in 0..<image.pixelCount {
            bytes.append(contentsOf: image.pixels[(pixel * stride + offset)..<(pixel * stride + stride)])
        }
        return bytes
    }
}
