extension Image {
    /// The image's pixels in `target`'s colour space, through Little CMS.
    ///
    /// The source is the embedded ICC profile; without one, AVIF code points naming Display P3 give that
    /// profile, PNG `gAMA` and `cHRM` other than sRGB's give a profile of those primaries and that gamma,
    /// and anything else is taken as sRGB. Alpha is copied unchanged, the sample depth is kept, and the
    /// layout follows the target: a gray target makes colour images gray, and a gray image converted to
    /// sRGB, Display P3 or Adobe RGB stays gray (in gray with the target's curve). The result carries the
    /// target's profile, or none for sRGB when ``ColorConversionOptions/embedsSRGBProfile`` is off, and no
    /// longer the gamma, chromaticities or code points of the source. An image already in the target space
    /// (an sRGB-tagged or untagged image converted to sRGB) keeps its pixels bit for bit, and no transform
    /// is built.
    ///
    /// ```swift
    /// let web = try Image(contentsOfFile: "iphone.heic.png").converted(toColorSpace: .sRGB)
    /// ```
    public func converted(
        toColorSpace target: ColorSpace, options: ColorConversionOptions = .init()
    ) throws(ImageProcessingError) -> Image {
        // The common case first, with no profile looked at or built: untagged to sRGB changes nothing.
        if case .sRGB = target, metadata.iccProfile == nil, try colorProfile() == nil { return self }
        let source = try effectiveColorProfile()
        let output = try outputProfile(for: target.profile)
        var result: Image
        if source == output || (source.isSRGB && output.isSRGB && source.colorSpace == output.colorSpace) {
            result = self
            // An embedded sRGB profile stays as it was; an untagged image stays untagged (untagged is sRGB).
        } else {
            let inputFormat = LCMSPixelType(pixelFormat, space: source.colorSpace)
            let layout: PixelLayout =
                output.colorSpace == .gray
                ? (pixelFormat.layout.hasAlpha ? .grayAlpha : .gray) : (pixelFormat.layout.hasAlpha ? .rgba : .rgb)
            let format = PixelFormat(layout: layout, bitsPerSample: pixelFormat.bitsPerSample)
            let outputFormat = LCMSPixelType(format, space: output.colorSpace)
            let transform = try ColorTransformCache.transform(
                from: source, format: inputFormat, to: output, format: outputFormat, options: options)
            let count = pixelCount
            let pixels = [UInt8](unsafeUninitializedCapacity: count * format.bytesPerPixel) { buffer, initialized in
                withUnsafeBytes { input in
                    transform.apply(input, into: UnsafeMutableRawBufferPointer(buffer), pixelCount: count)
                }
                initialized = count * format.bytesPerPixel
            }
            result = Image(width: width, height: height, pixelFormat: format, pixels: pixels, metadata: metadata)
            // The profile says what the pixels are now; what described the old ones goes, so that a second
            // conversion does not apply the first one again.
            result.metadata.iccProfile = output.iccData
            result.metadata.gamma = nil
            result.metadata.chromaticities = nil
            result.metadata.cicp = nil
            result.metadata.declaresSRGB = false
        }
        if output.isSRGB && !options.embedsSRGBProfile { result.metadata.iccProfile = nil }
        return result
    }

    /// The image's colour profile: the embedded one, one named by AVIF colour code points (Display P3), one
    /// made from PNG `gAMA` and `cHRM`, or `nil` when nothing says anything but sRGB (a PNG `sRGB` chunk
    /// says sRGB whatever the others say).
    public func colorProfile() throws(ImageProcessingError) -> ColorProfile? {
        if let bytes = metadata.iccProfile {
            let profile = try ColorTransformCache.profile(bytes)
            let expected: ColorProfile.Space = pixelFormat.layout.isColor ? .rgb : .gray
            guard profile.colorSpace == expected else {
                throw .unsupportedColorProfile(
                    colorSpace: profile.colorSpace.rawValue,
                    reason: "the image has \(pixelFormat.layout.rawValue) pixels")
            }
            return profile
        }
        if metadata.declaresSRGB { return nil }
        if let cicpProfile = metadata.cicp?.colorProfile, pixelFormat.layout.isColor { return cicpProfile }
        return ColorProfile.pngProfile(
            fileGamma: metadata.gamma, chromaticities: metadata.chromaticities, gray: !pixelFormat.layout.isColor)
    }

    /// The profile the pixels are in, sRGB (or sRGB gray) when nothing says otherwise.
    private func effectiveColorProfile() throws(ImageProcessingError) -> ColorProfile {
        if let profile = try colorProfile() { return profile }
        return pixelFormat.layout.isColor ? .sRGB : .sRGBGray
    }

    /// The profile the result is in: `target`, or its gray counterpart for a gray image.
    private func outputProfile(for target: ColorProfile) throws(ImageProcessingError) -> ColorProfile {
        switch target.colorSpace {
        case .gray:
            return target
        case .rgb:
            guard !pixelFormat.layout.isColor else { return target }
            if target.isSRGB || target == .displayP3 { return .sRGBGray }
            if target == .adobeRGB { return .adobeRGBGray }
            return target
        default:
            throw .unsupportedColorProfile(colorSpace: target.colorSpace.rawValue, reason: "only RGB or gray targets")
        }
    }
}
