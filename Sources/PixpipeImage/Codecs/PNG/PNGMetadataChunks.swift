import CPixpipeImage

/// The metadata chunks of a PNG, copied out of libpng: gAMA, sRGB, cHRM, iCCP, eXIf and pHYs.
struct PNGMetadataChunks {
    /// The file gamma from gAMA.
    var gamma: Double?
    /// Whether an sRGB chunk is present.
    var declaresSRGB: Bool
    /// The cHRM white point and primaries.
    var chromaticities: ImageMetadata.Chromaticities?
    /// The decompressed iCCP profile.
    var iccProfile: [UInt8]?
    /// The eXIf payload, a TIFF-structured block.
    var exif: [UInt8]?
    /// Dots per inch from pHYs, when its unit is the metre.
    var dotsPerInch: ImageMetadata.Resolution?

    private static let metresPerInch = 0.0254

    /// Copies what the C info holds (its pointers are only valid while the reader lives).
    init(_ info: pxp_png_info) {
        gamma = info.has_gamma != 0 ? info.gamma : nil
        declaresSRGB = info.has_srgb != 0
        if info.has_chrm != 0 {
            let c = info.chrm
            chromaticities = ImageMetadata.Chromaticities(
                white: (c.0, c.1), red: (c.2, c.3), green: (c.4, c.5), blue: (c.6, c.7))
        }
        iccProfile = Self.copy(info.icc, count: info.icc_length)
        exif = Self.copy(info.exif, count: info.exif_length)
        // Unit 1 is PNG_RESOLUTION_METER; unit 0 only gives an aspect ratio, not a resolution.
        if info.has_phys != 0, info.phys_unit == 1 {
            dotsPerInch = ImageMetadata.Resolution(
                x: Double(info.phys_x) * Self.metresPerInch, y: Double(info.phys_y) * Self.metresPerInch)
        }
    }

    /// Fills the chunk-derived fields of `metadata`; orientation comes from the EXIF block.
    func apply(to metadata: inout ImageMetadata) {
        metadata.gamma = gamma
        metadata.declaresSRGB = declaresSRGB
        metadata.chromaticities = chromaticities
        metadata.iccProfile = iccProfile
        metadata.exif = exif
        metadata.orientation = exif.flatMap { EXIFReader.orientation(tiff: $0) } ?? .up
        metadata.dotsPerInch = dotsPerInch
    }

    private static func copy(_ pointer: UnsafePointer<UInt8>?, count: Int) -> [UInt8]? {
        guard let pointer, count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }
}
