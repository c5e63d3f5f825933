extension Thumbnailer {
    /// One source's geometry, in upright pixels, and the size to resize its stored pixels to.
    struct Plan {
        /// Where the upright output comes from.
        let geometry: ThumbnailGeometry
        /// The resize target before orientation: the upright size, swapped for orientations 5 to 8.
        let storedWidth: Int
        /// See ``storedWidth``.
        let storedHeight: Int

        /// The plan for a stored `width` x `height` source shown with `orientation`; checks the source limit.
        init(
            width: Int, height: Int, orientation: Orientation, format: ImageFormat?, _ options: ThumbnailOptions
        ) throws(ThumbnailError) {
            guard width > 0, height > 0 else {
                throw .decoding(.corrupt(format: format ?? .png, reason: "image has no pixels"))
            }
            if let limit = options.sourcePixelLimit {
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                if overflow || pixels > limit { throw .sourceTooLarge(width: width, height: height, limit: limit) }
            }
            let swaps = options.appliesOrientation && orientation.swapsDimensions
            geometry = try ThumbnailGeometry(
                sourceWidth: swaps ? height : width, sourceHeight: swaps ? width : height, options: options)
            storedWidth = swaps ? geometry.resizedHeight : geometry.resizedWidth
            storedHeight = swaps ? geometry.resizedWidth : geometry.resizedHeight
        }
    }
}
