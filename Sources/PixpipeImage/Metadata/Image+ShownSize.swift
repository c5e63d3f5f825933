extension Image {
    /// The size the picture is shown at: the stored pixels after the AVIF clean aperture and the EXIF (or
    /// HEIF `irot`) orientation, which is what ``applyingOrientation()`` returns and what a viewer shows.
    ///
    /// ```swift
    /// let photo = try Image(contentsOf: URL(fileURLWithPath: "portrait.jpg"))
    /// print(photo.width, photo.height)   // 1800 1200: stored pixels, on their side (orientation 6)
    /// print(photo.shownSize)             // 1200x1800: as shown
    /// ```
    public var shownSize: ImageSize {
        let shown = metadata.shownSize(width: width, height: height)
        return ImageSize(width: shown.width, height: shown.height)
    }

    /// Not available: say which size is meant, the stored pixels or the picture as shown.
    @available(
        *, unavailable,
        message: "use shownSize for the size as shown (after orientation), or width and height for the stored pixels"
    )
    public var size: ImageSize { shownSize }
}
