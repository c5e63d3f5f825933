import Foundation

/// Encodes images as JPEG through the system libjpeg-turbo.
///
/// Gray layouts become one-channel JPEGs, colour layouts YCbCr; alpha is composited over white and
/// 16-bit samples are reduced to 8 bits first. The ICC profile (APP2) and EXIF block (APP1) are
/// written when the options ask for them and the metadata has them; the EXIF orientation written
/// always equals `metadata.orientation` (see ``EXIFOrientationWriter``).
enum JPEGEncoder {
    /// The APP1 marker code (EXIF).
    private static let app1Marker = 0xE1
    /// The most bytes of TIFF data an APP1 segment can carry after its `Exif\0\0` prefix.
    private static let maxEXIFBytes = 65533 - 6

    /// Encodes `image` with `options`.
    static func encode(_ image: Image, options: JPEGEncodeOptions) throws(ImageEncodingError) -> Data {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("JPEG quality must be in 1...100, not \(options.quality)")
        }
        guard image.width <= 65500, image.height <= 65500 else {
            throw .invalidOption("JPEG stores at most 65500 x 65500 pixels, not \(image.width) x \(image.height)")
        }
        let isGray = !image.pixelFormat.layout.isColor
        let source = image.converted(to: isGray ? .gray8 : .rgb8)
        let writer = try JPEGWriter(
            width: source.width, height: source.height, space: isGray ? .gray : .rgb, options: options,
            dotsPerInch: image.metadata.dotsPerInch)
        if options.includesEXIF,
            let exif = EXIFOrientationWriter.block(image.metadata.exif, orientation: image.metadata.orientation)
        {
            guard exif.count <= maxEXIFBytes else {
                throw .invalidOption("the EXIF block (\(exif.count) bytes) does not fit one APP1 segment")
            }
            try writer.writeMarker(app1Marker, payload: Array("Exif".utf8) + [0, 0] + exif)
        }
        if options.includesICCProfile, let profile = image.metadata.iccProfile {
            try writer.writeICCProfile(profile)
        }
        try source.withUnsafeBytes { (pixels) throws(ImageEncodingError) in
            try writer.writeRows(pixels, stride: source.bytesPerRow, count: source.height)
        }
        return try writer.finish()
    }
}
