import CLibAVIF

/// The HEIF `irot` and `imir` properties as an EXIF ``Orientation``, both ways.
///
/// libavif reports the boxes and leaves the pixels as stored (so does `avifdec`), so the decoder reports
/// the transform in ``ImageMetadata/orientation`` and ``Image/applyingOrientation()`` turns the picture
/// upright, as for EXIF. MIAF fixes the order: the rotation (`irot`, anticlockwise in quarter turns) is
/// applied first, then the mirror (`imir` mode 0 exchanges top and bottom, mode 1 left and right).
enum AVIFTransforms {
    /// The orientation `image`'s transform flags, `irot` and `imir` describe; `.up` without them.
    static func orientation(of image: avifImage) -> Orientation {
        let flags = image.transformFlags
        let turns = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
        let mirror: Int? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
        return table[turns][mirror.map { $0 + 1 } ?? 0]
    }

    /// Sets `image`'s `irot`/`imir` (and their flags) to show the picture as `orientation` says.
    static func apply(_ orientation: Orientation, to image: inout avifImage) {
        image.transformFlags &= ~(AVIF_TRANSFORM_IROT.rawValue | AVIF_TRANSFORM_IMIR.rawValue)
        guard orientation != .up else { return }
        for turns in 0..<4 {
            for column in 0..<3 where table[turns][column] == orientation {
                if turns > 0 {
                    image.transformFlags |= AVIF_TRANSFORM_IROT.rawValue
                    image.irot.angle = UInt8(turns)
                }
                if column > 0 {
                    image.transformFlags |= AVIF_TRANSFORM_IMIR.rawValue
                    image.imir.mode = UInt8(column - 1)
                }
                return
            }
        }
    }

    /// Rows: quarter turns anticlockwise (0...3). Columns: no mirror, mode 0 (top-bottom), mode 1 (left-right).
    private static let table: [[Orientation]] = [
        [.up, .downMirrored, .upMirrored],
        [.left, .leftMirrored, .rightMirrored],
        [.down, .upMirrored, .downMirrored],
        [.right, .rightMirrored, .leftMirrored],
    ]
}
