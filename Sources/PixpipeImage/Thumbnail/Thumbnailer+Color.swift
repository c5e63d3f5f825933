extension Thumbnailer {
    /// `thumbnail` converted as ``ThumbnailOptions/colorConversion`` says.
    ///
    /// The conversion runs on the resized pixels: resizing in the source's space and converting afterwards
    /// differs from the other order only by the curve's bend inside each filter's footprint, as any resize in
    /// gamma-encoded values does (and not at all with linear light). A profile Little CMS refuses (damaged,
    /// or not matching the pixels) does not fail the thumbnail: the pixels are kept, the profile dropped, and
    /// a benign warning says so, as a damaged ICC marker is treated when decoding.
    func convertingColor(_ thumbnail: Image) throws(ThumbnailError) -> Image {
        guard let conversion = options.colorConversion else { return thumbnail }
        do {
            return try thumbnail.converted(toColorSpace: conversion.target, options: conversion.options)
        } catch {
            var kept = thumbnail
            kept.metadata.iccProfile = nil
            kept.metadata.warnings.append(
                DecodeWarning(
                    kind: .benign, code: ImageColorError.profileIgnoredWarningCode, message: error.description))
            return kept
        }
    }
}
