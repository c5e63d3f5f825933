/// Where a rectangle of an image's pixels lands when the whole image is turned, scaled or cut, so that a
/// clean aperture (``ImageMetadata/cleanAperture``) keeps naming the same part of the picture after
/// ``Image/transformed(by:)``, ``Image/resized(width:height:filter:options:)`` and ``Image/cropped(to:)``.
extension PixelRect {
    /// The rectangle after a `width` x `height` image is transformed by `orientation` (see
    /// ``OrientationMapping`` for the eight maps): the same pixels, in the output's coordinates.
    func transformed(by orientation: Orientation, width: Int, height: Int) -> PixelRect {
        // Each stored edge lands on an output edge; a mirrored axis counts from the far side.
        let flippedX = width - (x + self.width)
        let flippedY = height - (y + self.height)
        switch orientation {
        case .up: return self
        case .upMirrored: return PixelRect(x: flippedX, y: y, width: self.width, height: self.height)
        case .down: return PixelRect(x: flippedX, y: flippedY, width: self.width, height: self.height)
        case .downMirrored: return PixelRect(x: x, y: flippedY, width: self.width, height: self.height)
        case .leftMirrored: return PixelRect(x: y, y: x, width: self.height, height: self.width)
        case .right: return PixelRect(x: flippedY, y: x, width: self.height, height: self.width)
        case .rightMirrored: return PixelRect(x: flippedY, y: flippedX, width: self.height, height: self.width)
        case .left: return PixelRect(x: y, y: flippedX, width: self.height, height: self.width)
        }
    }

    /// The rectangle after a `width` x `height` image is resampled to `newWidth` x `newHeight`: its edges
    /// scaled and rounded outwards (no shown pixel is lost), kept inside the new image, at least one pixel.
    func scaled(fromWidth width: Int, height: Int, toWidth newWidth: Int, height newHeight: Int) -> PixelRect {
        func edges(_ start: Int, _ length: Int, _ from: Int, _ to: Int) -> (Int, Int) {
            let scale = Double(to) / Double(from)
            let first = min(max(Int((Double(start) * scale).rounded(.down)), 0), to - 1)
            let last = min(max(Int((Double(start + length) * scale).rounded(.up)), first + 1), to)
            return (first, last - first)
        }
        let (left, columns) = edges(x, self.width, width, newWidth)
        let (top, rows) = edges(y, self.height, height, newHeight)
        return PixelRect(x: left, y: top, width: columns, height: rows)
    }

    /// The rectangle after the image is cut to `crop` (already inside the image): moved to the crop's
    /// coordinates and clipped to it; `nil` when nothing of it is left.
    func cut(to crop: PixelRect) -> PixelRect? {
        let inside = intersection(crop)
        guard !inside.isEmpty else { return nil }
        return PixelRect(x: inside.x - crop.x, y: inside.y - crop.y, width: inside.width, height: inside.height)
    }
}
