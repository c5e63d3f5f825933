import CLibLCMS2
import Foundation
import PixpipeImage

/// A CMYK profile made in the test from Little CMS primitives: the subtractive formula (each colour channel
/// is what its ink and the black ink let through) read in a given RGB space, with full gray-component
/// replacement on the way in (K = 1 - max(R, G, B)). Read in Display P3 it differs from Pixpipe's naive
/// formula (read in sRGB), so a decode that ignores the profile is caught.
enum ColorTestCMYK {
    /// TYPE_RGB_DBL: FLOAT_SH(1) | COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(0).
    private static let rgbDouble = UInt32(1 << 22 | Int(PT_RGB) << 16 | 3 << 3)
    /// TYPE_Lab_DBL: FLOAT_SH(1) | COLORSPACE_SH(PT_Lab) | CHANNELS_SH(3) | BYTES_SH(0).
    private static let labDouble = UInt32(1 << 22 | Int(PT_Lab) << 16 | 3 << 3)
    /// TYPE_CMYK_8_REV: inverted CMYK, as Adobe files (and Pixpipe's writer) store it.
    static let cmykInverted = UInt32(Int(PT_CMYK) << 16 | 1 << 13 | 4 << 3 | 1)

    /// The ICC bytes of the profile, the subtractive formula read in the RGB profile `rgb`.
    static func profile(through rgb: [UInt8], name: String) -> [UInt8] {
        let rgbProfile = rgb.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count))! }
        let lab = cmsCreateLab4Profile(nil)!
        let toLab = cmsCreateTransform(
            rgbProfile, rgbDouble, lab, labDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOCACHE))!
        let fromLab = cmsCreateTransform(
            lab, labDouble, rgbProfile, rgbDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOCACHE))!
        defer {
            cmsDeleteTransform(toLab)
            cmsDeleteTransform(fromLab)
            cmsCloseProfile(rgbProfile)
            cmsCloseProfile(lab)
        }
        let profile = cmsCreateProfilePlaceholder(nil)!
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ())

        // Device to PCS: CMYK ink amounts (0 = no ink) to Lab.
        let forward = cmsPipelineAlloc(nil, 4, 3)!
        let forwardTable = cmsStageAllocCLut16bit(nil, 17, 4, 3, nil)!
        cmsStageSampleCLut16bit(
            forwardTable,
            { input, output, cargo in
                guard let input, let output, let cargo else { return 0 }
                let ink = (0..<4).map { Double(input[$0]) / 65535 }
                var rgb = (0..<3).map { (1 - ink[$0]) * (1 - ink[3]) }
                var lab = cmsCIELab()
                cmsDoTransform(cargo, &rgb, &lab, 1)
                var encoded = [UInt16](repeating: 0, count: 3)
                cmsFloat2LabEncoded(&encoded, &lab)
                for channel in 0..<3 { output[channel] = encoded[channel] }
                return 1
            }, toLab, 0)
        // An ICC v4 lutAtoBType holds A curves, a CLUT and B curves: identity curves around the table.
        cmsPipelineInsertStage(forward, cmsAT_BEGIN, forwardTable)
        cmsPipelineInsertStage(forward, cmsAT_BEGIN, cmsStageAllocToneCurves(nil, 4, nil))
        cmsPipelineInsertStage(forward, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(forward))
        cmsPipelineFree(forward)

        // PCS to device: Lab to RGB (clipped), then full gray-component replacement.
        let backward = cmsPipelineAlloc(nil, 3, 4)!
        let backwardTable = cmsStageAllocCLut16bit(nil, 17, 3, 4, nil)!
        cmsStageSampleCLut16bit(
            backwardTable,
            { input, output, cargo in
                guard let input, let output, let cargo else { return 0 }
                var lab = cmsCIELab()
                let encoded = [input[0], input[1], input[2]]
                cmsLabEncoded2Float(&lab, encoded)
                var rgb = [Double](repeating: 0, count: 3)
                cmsDoTransform(cargo, &lab, &rgb, 1)
                rgb = rgb.map { min(1, max(0, $0)) }
                let black = 1 - (rgb.max() ?? 0)
                var ink = rgb.map { black >= 1 ? 0 : (1 - $0 - black) / (1 - black) }
                ink.append(black)
                for channel in 0..<4 { output[channel] = UInt16((min(1, max(0, ink[channel])) * 65535).rounded()) }
                return 1
            }, fromLab, 0)
        cmsPipelineInsertStage(backward, cmsAT_BEGIN, backwardTable)
        cmsPipelineInsertStage(backward, cmsAT_BEGIN, cmsStageAllocToneCurves(nil, 3, nil))
        cmsPipelineInsertStage(backward, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil))
        cmsWriteTag(profile, cmsSigBToA0Tag, UnsafeRawPointer(backward))
        cmsPipelineFree(backward)

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

    /// `image` (sRGB, rgb8) as inverted CMYK samples through the CMYK profile `cmyk`, by Little CMS.
    static func separate(_ image: Image, into cmyk: [UInt8]) -> [UInt8] {
        let sRGB = cmsCreate_sRGBProfile()!
        let target = cmyk.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count))! }
        defer {
            cmsCloseProfile(sRGB)
            cmsCloseProfile(target)
        }
        let rgb8 = UInt32(Int(PT_RGB) << 16 | 3 << 3 | 1)
        let transform = cmsCreateTransform(
            sRGB, rgb8, target, cmykInverted, UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE))!
        defer { cmsDeleteTransform(transform) }
        var samples = [UInt8](repeating: 0, count: image.pixelCount * 4)
        image.withUnsafeBytes { input in
            samples.withUnsafeMutableBytes {
                cmsDoTransform(transform, input.baseAddress, $0.baseAddress, UInt32(image.pixelCount))
            }
        }
        return samples
    }
}
