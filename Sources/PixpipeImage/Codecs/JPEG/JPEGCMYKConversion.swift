import CLibLCMS2

/// How a four-channel JPEG's CMYK samples become sRGB with Little CMS: through the file's embedded CMYK
/// profile, else through ``ColorProfile/genericCMYK`` (a press model); ``CMYKConverter``'s naive formula
/// only when Little CMS cannot build the transform.
///
/// The decoded image is sRGB either way, so it carries no profile (the CMYK profile described the file's
/// samples, not the decoded pixels); `pixpipe info` still reports the file's profile.
enum JPEGCMYKConversion {
    /// Through the embedded or the generic profile.
    case profile(ColorTransform)
    /// The naive formula: the fallback when Little CMS fails.
    case naive

    /// The conversion for a file whose embedded profile is `iccProfile`; `inverted` says the samples are
    /// stored inverted (Adobe APP14 marker). The warning says why an embedded profile was not used (the
    /// generic profile is then).
    static func make(iccProfile: [UInt8]?, inverted: Bool) -> (conversion: JPEGCMYKConversion, warning: DecodeWarning?)
    {
        var warning: DecodeWarning?
        if let iccProfile {
            do throws(ImageProcessingError) {
                let profile = try ColorTransformCache.profile(iccProfile)
                guard profile.colorSpace == .cmyk else {
                    throw ImageProcessingError.unsupportedColorProfile(
                        colorSpace: profile.colorSpace.rawValue, reason: "the JPEG stores CMYK samples")
                }
                return (.profile(try transform(from: profile, inverted: inverted)), nil)
            } catch {
                warning = SharedWarningTable.colorProfileIgnored.warning(
                    "\(error.description); CMYK converted through the generic press profile")
            }
        }
        // Built from constants: this only fails if Little CMS itself does.
        guard let generic = try? transform(from: .genericCMYK, inverted: inverted) else { return (.naive, warning) }
        return (.profile(generic), warning)
    }

    /// The cached transform from CMYK in `profile` to sRGB, perceptual.
    private static func transform(from profile: ColorProfile, inverted: Bool) throws(ImageProcessingError)
        -> ColorTransform
    {
        let input = LCMSPixelType(
            space: UInt32(PT_CMYK), colorChannels: 4, extra: 0, bytesPerSample: 1, inverted: inverted)
        let output = LCMSPixelType(.rgb8, space: .rgb)
        return try ColorTransformCache.transform(
            from: profile, format: input, to: .sRGB, format: output, options: ColorConversionOptions())
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
