import CLibLCMS2

/// How a four-channel JPEG's CMYK samples become sRGB: through the file's embedded CMYK profile with Little
/// CMS when it has one, else with ``CMYKConverter``'s naive formula.
///
/// The decoded image is sRGB either way, so it carries no profile (the CMYK profile described the file's
/// samples, not the decoded pixels); `pixpipe info` still reports the file's profile.
enum JPEGCMYKConversion {
    /// Through the embedded profile.
    case profile(ColorTransform)
    /// The naive formula: no profile, or one Little CMS could not use (with a benign warning).
    case naive

    /// The conversion for a file whose embedded profile is `iccProfile`; `inverted` says the samples are
    /// stored inverted (Adobe APP14 marker). The warning says why an embedded profile was not used.
    static func make(iccProfile: [UInt8]?, inverted: Bool) -> (conversion: JPEGCMYKConversion, warning: DecodeWarning?)
    {
        guard let iccProfile else { return (.naive, nil) }
        do throws(ImageColorError) {
            let profile = try ColorTransformCache.profile(iccProfile)
            guard profile.colorSpace == .cmyk else {
                throw ImageColorError.unsupportedProfile(
                    colorSpace: profile.colorSpace.rawValue, reason: "the JPEG stores CMYK samples")
            }
            let input = LCMSPixelType(
                space: UInt32(PT_CMYK), colorChannels: 4, extra: 0, bytesPerSample: 1, inverted: inverted)
            let output = LCMSPixelType(.rgb8, space: .rgb)
            let transform = try ColorTransformCache.transform(
                from: profile, format: input, to: .sRGB, format: output, options: ColorConversionOptions())
            return (.profile(transform), nil)
        } catch {
            let warning = DecodeWarning(
                kind: .benign, code: ImageColorError.profileIgnoredWarningCode,
                message: "\(error.description); CMYK converted without it")
            return (.naive, warning)
        }
    }

    /// Converts `pixelCount` CMYK pixels at `source` into RGB pixels at `destination`.
    func convert(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, pixelCount: Int,
        inverted: Bool
    ) {
        switch self {
        case .profile(let transform): transform.apply(source, into: destination, pixelCount: pixelCount)
        case .naive: CMYKConverter.convert(source, into: destination, pixelCount: pixelCount, inverted: inverted)
        }
    }
}
