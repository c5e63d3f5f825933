extension Image {
    /// The pixels inside `rect`, clamped to the image; throws when nothing of `rect` lies inside it.
    ///
    /// A rectangle that reaches past an edge is cut at that edge, so `PixelRect(x: -10, y: 0,
    /// width: 50, height: 50)` on a 100x100 image yields its 40x50 top-left corner. Metadata is kept; a
    /// clean aperture is moved to the new corner and clipped to the crop (`nil` when none of it is left).
    public func cropped(to rect: PixelRect) throws(ImageProcessingError) -> Image {
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        let inside = rect.intersection(bounds)
        guard !inside.isEmpty else { throw .emptyCrop(rect, imageWidth: width, imageHeight: height) }
        if inside == bounds { return self }
        var result = Image(width: inside.width, height: inside.height, pixelFormat: pixelFormat, metadata: metadata)
        result.metadata.cleanAperture = metadata.cleanAperture?.cut(to: inside)
        let bytesPerPixel = pixelFormat.bytesPerPixel
        let sourceRowBytes = bytesPerRow
        let rowBytes = result.bytesPerRow
        withUnsafeBytes { source in
            result.withUnsafeMutableBytes { destination in
                for row in 0..<inside.height {
                    let from = (inside.y + row) * sourceRowBytes + inside.x * bytesPerPixel
                    let to = row * rowBytes
                    destination[to..<(to + rowBytes)].copyBytes(from: source[from..<(from + rowBytes)])
                }
            }
        }
        return result
    }
}
