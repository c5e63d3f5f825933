extension Image {
    /// The picture turned upright: `metadata.orientation` applied to the pixels, then set to `.up`.
    ///
    /// ```swift
    /// let upright = try Image(contentsOfFile: "phone.jpg").applyingOrientation()
    /// ```
    public func applyingOrientation() -> Image {
        transformed(by: metadata.orientation)
    }

    /// The pixels transformed as `orientation` says (exact rotations and flips); orientation becomes `.up`.
    ///
    /// `orientation` is read as EXIF defines it: how the stored pixels must be transformed to be shown
    /// upright (`.right`, value 6, rotates 90° clockwise). Orientations 5 to 8 swap width and height.
    ///
    /// The result's `metadata.orientation` is `.up`, and the orientation tag inside `metadata.exif` is
    /// rewritten to 1 in place, so the rest of the EXIF block (camera, date, ...) is kept while no reader
    /// rotates the pixels a second time. Every pixel format is copied byte for byte.
    public func transformed(by orientation: Orientation) -> Image {
        var result: Image
        if orientation == .up {
            result = self
        } else {
            let mapping = OrientationMapping(orientation: orientation, width: width, height: height)
            result = Image(
                width: mapping.outputWidth, height: mapping.outputHeight, pixelFormat: pixelFormat, metadata: metadata)
            let bytesPerPixel = pixelFormat.bytesPerPixel
            withUnsafeBytes { source in
                result.withUnsafeMutableBytes { destination in
                    mapping.copyPixels(from: source, to: destination, bytesPerPixel: bytesPerPixel)
                }
            }
        }
        result.metadata.orientation = .up
        if let exif = result.metadata.exif {
            result.metadata.exif = EXIFOrientationWriter.block(exif, orientation: .up)
        }
        return result
    }
}
