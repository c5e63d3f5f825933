import CPixpipeImage

extension JPEGReader {
    /// Whether the source stores four channels (CMYK, or YCCK that libjpeg turns into CMYK).
    var isFourChannel: Bool {
        header.color_space == Int32(PXP_JPEG_SPACE_CMYK) || header.color_space == Int32(PXP_JPEG_SPACE_YCCK)
    }

    /// The pixel format a decode produces: gray for one channel, RGB for everything else.
    var outputPixelFormat: PixelFormat { header.components == 1 ? .gray8 : .rgb8 }

    /// The libjpeg output space that leads to ``outputPixelFormat``.
    var outputSpace: JPEGColorSpace {
        if header.components == 1 { return .gray }
        return isFourChannel ? .cmyk : .rgb
    }

    /// What the header and the saved markers say: format, depth, progressive, EXIF, ICC, density.
    func metadata() -> ImageMetadata {
        var metadata = ImageMetadata(
            sourceFormat: .jpeg, sourceBitDepth: Int(header.data_precision), isInterlaced: header.progressive != 0)
        if let exif = exifBlock() {
            metadata.exif = exif
            metadata.orientation = EXIFReader.orientation(tiff: exif) ?? .up
        }
        metadata.iccProfile = iccProfile()
        metadata.dotsPerInch = dotsPerInch
        return metadata
    }

    /// The JFIF density in dots per inch, when the file states it in inches or centimetres.
    private var dotsPerInch: ImageMetadata.Resolution? {
        guard header.saw_jfif != 0, header.x_density > 0, header.y_density > 0 else { return nil }
        let x = Double(header.x_density)
        let y = Double(header.y_density)
        switch header.density_unit {
        case 1: return .init(x: x, y: y)
        case 2: return .init(x: x * 2.54, y: y * 2.54)
        default: return nil  // 0 gives only the aspect ratio
        }
    }
}
