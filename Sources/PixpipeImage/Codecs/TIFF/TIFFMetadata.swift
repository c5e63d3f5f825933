import CPixpipeTIFF

/// A page's metadata: Orientation, the ICC profile, XMP, resolution and the source depth.
enum TIFFMetadata {
    /// A copy of `count` bytes at `pointer`, or `nil` when there are none.
    static func bytes(_ pointer: UnsafePointer<UInt8>?, _ count: UInt32) -> [UInt8]? {
        guard let pointer, count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
    }

    /// The metadata of `handle`'s current page, with its EXIF block (see ``TIFFEXIFBlock``).
    static func metadata(of handle: TIFFHandle, warnings: [DecodeWarning]) -> ImageMetadata {
        var metadata = metadata(of: handle.page, warnings: warnings)
        if let block = TIFFEXIFBlock.block(handle.bytes, page: handle.pageIndex, orientation: metadata.orientation) {
            metadata.exif = block
        }
        return metadata
    }

    /// The metadata of `page`. The Orientation tag (a TIFF's own tag, the one EXIF copies) is also given as
    /// a minimal EXIF block holding it; ``metadata(of:warnings:)-(TIFFHandle,_)`` adds the EXIF IFD.
    static func metadata(of page: pxp_tiff_page, warnings: [DecodeWarning]) -> ImageMetadata {
        var metadata = ImageMetadata(
            sourceFormat: .tiff, sourceBitDepth: Int(page.bits_per_sample), warnings: warnings)
        if page.has_orientation != 0, let orientation = Orientation(rawValue: Int(page.orientation)) {
            metadata.orientation = orientation
            metadata.exif = EXIFOrientationWriter.minimalBlock(orientation: orientation)
        }
        metadata.iccProfile = bytes(page.icc, page.icc_size)
        metadata.xmp = bytes(page.xmp, page.xmp_size)
        if page.has_resolution != 0, page.x_resolution > 0, page.y_resolution > 0,
            page.resolution_unit == 2 || page.resolution_unit == 3
        {
            // ResolutionUnit 2 is inches, 3 centimetres.
            let scale = page.resolution_unit == 3 ? 2.54 : 1
            metadata.dotsPerInch = .init(x: Double(page.x_resolution) * scale, y: Double(page.y_resolution) * scale)
        }
        return metadata
    }
}
