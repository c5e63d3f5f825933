extension Image {
    /// The image resampled so that the picture as shown fits inside `box`, keeping its aspect ratio; never
    /// enlarged unless `allowsUpscaling`.
    ///
    /// ```swift
    /// let preview = try Image(contentsOf: photoURL).resized(toFit: ImageSize(width: 800, height: 800))
    /// ```
    ///
    /// The box is in shown pixels (``shownSize``): a photo stored on its side with an EXIF orientation of 6
    /// is fitted upright, and its orientation is kept in the metadata, so ``applyingOrientation()`` still
    /// turns it. One side matches the box, the other is shorter or equal, at least one pixel. The sizes are
    /// planned as the thumbnailer's `.fit` mode plans them; the pixels are those of
    /// ``resized(width:height:filter:options:)``.
    public func resized(
        toFit box: ImageSize, allowsUpscaling: Bool = false, filter: ResizeFilter = .lanczos3,
        options: ResizeOptions = .init()
    ) throws(GeometryError) -> Image {
        let swaps = metadata.orientation.swapsDimensions
        let storedBox = swaps ? ImageSize(width: box.height, height: box.width) : box
        let geometry: ThumbnailGeometry
        do {
            geometry = try ThumbnailGeometry(
                sourceWidth: width, sourceHeight: height,
                options: ThumbnailOptions(
                    size: .box(width: storedBox.width, height: storedBox.height), mode: .fit,
                    allowsUpscaling: allowsUpscaling))
        } catch {
            throw .invalidSize(width: box.width, height: box.height)
        }
        return try resized(
            width: geometry.resizedWidth, height: geometry.resizedHeight, filter: filter, options: options)
    }
}
