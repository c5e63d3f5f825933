extension Image {
    /// The picture as it is shown: cut to `metadata.cleanAperture`, then `metadata.orientation` applied to
    /// the pixels; the result has no clean aperture and orientation `.up`.
    ///
    /// ```swift
    /// let upright = try Image(contentsOfFile: "phone.jpg").applyingOrientation()
    /// ```
    ///
    /// The crop comes first because HEIF orders the transforms so (`clap`, then `irot`, then `imir`) and
    /// the rectangle is in stored pixels; only AVIF files carry one.
    public func applyingOrientation() -> Image {
        applyingCleanAperture().transformed(by: metadata.orientation)
    }

    /// The stored pixels inside `metadata.cleanAperture` (AVIF's `clap` crop), which becomes `nil`; the
    /// image unchanged when it has none.
    public func applyingCleanAperture() -> Image {
        guard let aperture = metadata.cleanAperture else { return self }
        // A rectangle outside the pixels (metadata set by hand) shows them all rather than nothing.
        var result = (try? cropped(to: aperture)) ?? self
        result.metadata.cleanAperture = nil
        return result
    }

    /// The pixels transformed as `orientation` says (exact rotations and flips); orientation becomes `.up`.
    ///
    /// `orientation` is read as EXIF defines it: how the stored pixels must be transformed to be shown
    /// upright (`.right`, value 6, rotates 90° clockwise). Orientations 5 to 8 swap width and height.
    ///
    /// The result's `metadata.orientation` is `.up`, and the orientation tag inside `metadata.exif` is
    /// rewritten to 1 in place, so the rest of the EXIF block (camera, date, ...) is kept while no reader
    /// rotates the pixels a second time. Every pixel format is copied byte for byte. A clean aperture
    /// follows the pixels: it names the same part of the picture in the transformed image.
    public func transformed(by orientation: Orientation) -> Image {
        var result: Image
        if orientation == .up {
            result = self
        } else {
            var metadata = metadata
            metadata.cleanAperture = metadata.cleanAperture?.transformed(by: orientation, width: width, height: height)
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
