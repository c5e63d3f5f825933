import CPixpipeAVIF

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

/// The HEIF `clap` property (clean aperture) as a ``PixelRect`` of stored pixels, both ways.
///
/// libavif leaves the pixels uncropped (so does `avifdec`), so the decoder reports the rectangle in
/// ``ImageMetadata/cleanAperture`` and ``Image/applyingOrientation()`` cuts it before the rotation, in
/// HEIF's order. libavif's own conversion gives the rectangle with the rules of ISO/IEC 14496-12 and MIAF
/// (whole numbers, inside the image). It is asked as for a 4:4:4 image whatever the file's chroma, since
/// the crop is made on the RGB pixels: MIAF's even-offset rule for 4:2:0 and 4:2:2 (what libavif's strict
/// mode refuses, and browsers show) keeps chroma samples whole, which RGB pixels always are.
enum AVIFCleanAperture {
    /// The rectangle `image`'s `clap` box describes, `nil` without one; a box that names no whole
    /// rectangle inside the image is left out, with a benign `avif-clap-ignored` warning.
    static func rectangle(of image: avifImage) -> (PixelRect?, DecodeWarning?) {
        guard image.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 else { return (nil, nil) }
        var clap = image.clap
        var crop = avifCropRect()
        var diagnostics = avifDiagnostics()
        guard
            pxp_avifCropRectConvertCleanApertureBox(
                &crop, &clap, image.width, image.height, AVIF_PIXEL_FORMAT_YUV444, &diagnostics) != 0,
            crop.width > 0, crop.height > 0
        else {
            let reason = withUnsafeBytes(of: diagnostics.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let warning = AVIFWarningTable.clapIgnored.warning(
                "the clean aperture (clap) is not a whole rectangle inside the image"
                    + (reason.isEmpty ? "" : ": \(reason)") + "; every pixel is shown")
            return (nil, warning)
        }
        return (PixelRect(x: Int(crop.x), y: Int(crop.y), width: Int(crop.width), height: Int(crop.height)), nil)
    }

    /// Sets `image`'s `clap` box (and its flag) to `rectangle`, or clears it for `nil`, a rectangle that is
    /// all of the image, or one a strict reader would refuse: here the image's own chroma format counts
    /// (odd offsets are left out of 4:2:0 files), so every file written passes libavif's strict checks.
    static func apply(_ rectangle: PixelRect?, to image: inout avifImage) {
        image.transformFlags &= ~AVIF_TRANSFORM_CLAP.rawValue
        let bounds = PixelRect(x: 0, y: 0, width: Int(image.width), height: Int(image.height))
        guard let rectangle, rectangle != bounds, rectangle.intersection(bounds) == rectangle, !rectangle.isEmpty
        else { return }
        var crop = avifCropRect(
            x: UInt32(rectangle.x), y: UInt32(rectangle.y), width: UInt32(rectangle.width),
            height: UInt32(rectangle.height))
        var clap = avifCleanApertureBox()
        var diagnostics = avifDiagnostics()
        guard
            pxp_avifCleanApertureBoxConvertCropRect(
                &clap, &crop, image.width, image.height, image.yuvFormat, &diagnostics) != 0
        else { return }
        image.clap = clap
        image.transformFlags |= AVIF_TRANSFORM_CLAP.rawValue
    }
}
