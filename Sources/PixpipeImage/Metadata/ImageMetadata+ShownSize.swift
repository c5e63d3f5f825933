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
