extension Thumbnailer {
    /// One source's geometry, in upright pixels, and the size to resize its stored pixels to.
    struct Plan {
        /// Where the upright output comes from.
        let geometry: ThumbnailGeometry
        /// The resize target before orientation: the upright size, swapped for orientations 5 to 8. It is
        /// the target of the clean aperture alone when the source has one (cut before resizing).
        let storedWidth: Int
        /// See ``storedWidth``.
        let storedHeight: Int

        /// The plan for a stored `width` x `height` source shown with `orientation`, and cut to
        /// `cleanAperture` first when there is one; checks the source limit against the stored size (the
        /// decode is of all of it).
        init(
            width: Int, height: Int, orientation: Orientation, cleanAperture: PixelRect? = nil, format: ImageFormat?,
            _ options: ThumbnailOptions
        ) throws(ThumbnailError) {
            guard width > 0, height > 0 else {
                throw .decoding(.corrupt(format: format ?? .png, reason: "image has no pixels"))
            }
            if let limit = options.sourcePixelLimit {
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                if overflow || pixels > limit { throw .sourceTooLarge(width: width, height: height, limit: limit) }
            }
            let shown =
                options.appliesOrientation
                ? ImageMetadata.shownSize(
                    width: width, height: height, orientation: orientation, cleanAperture: cleanAperture)
                : (width: width, height: height)
            let swaps = options.appliesOrientation && orientation.swapsDimensions
            geometry = try ThumbnailGeometry(sourceWidth: shown.width, sourceHeight: shown.height, options: options)
            storedWidth = swaps ? geometry.resizedHeight : geometry.resizedWidth
            storedHeight = swaps ? geometry.resizedWidth : geometry.resizedHeight
        }
    }
}
