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

extension ImageMetadata {
    /// The size the picture of a `width` x `height` stored image is shown at (what
    /// ``Image/applyingOrientation()`` gives): the clean aperture's size, sides swapped for orientations 5 to 8.
    package func shownSize(width: Int, height: Int) -> (width: Int, height: Int) {
        Self.shownSize(width: width, height: height, orientation: orientation, cleanAperture: cleanAperture)
    }

    /// The shown size of a `width` x `height` stored image cut to `cleanAperture` (clipped to the image; all
    /// of it when the rectangle is outside, as ``Image/applyingCleanAperture()`` does), then turned by
    /// `orientation`.
    package static func shownSize(
        width: Int, height: Int, orientation: Orientation, cleanAperture: PixelRect?
    ) -> (width: Int, height: Int) {
        var shown = (width: width, height: height)
        if let inside = cleanAperture?.intersection(PixelRect(x: 0, y: 0, width: width, height: height)),
            !inside.isEmpty
        {
            shown = (inside.width, inside.height)
        }
        return orientation.swapsDimensions ? (shown.height, shown.width) : shown
    }
}
