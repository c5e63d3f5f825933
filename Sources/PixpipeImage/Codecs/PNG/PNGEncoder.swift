import CPixpipeImage
import Foundation

/// Encodes an ``Image`` as PNG through libpng: 8 or 16 bits, any layout, optional Adam7.
///
/// 16-bit samples are written big-endian as PNG requires. The ICC profile goes into iCCP and the EXIF
/// block into eXIf when the options ask for them, the block's orientation tag set to the image's
/// orientation. libpng drops (with a warning, not an error) a profile whose header does not suit the
/// image, for example a gray profile on an RGB image.
enum PNGEncoder {
    /// PNG bytes for `image`; throws ``ImageEncodingError/invalidOption(_:)`` for a level outside 0...9.
    static func encode(_ image: Image, options: PNGEncodeOptions) throws(ImageEncodingError) -> Data {
        guard (0...9).contains(options.compressionLevel) else {
            throw .invalidOption("PNG compression level \(options.compressionLevel) is not in 0...9")
        }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height),
            width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF
        else {
            throw .unsupportedPixelFormat(image.pixelFormat, format: .png)
        }
        guard let encoder = pxp_png_encoder_create() else {
            throw .libraryFailure(format: .png, reason: "libpng could not allocate an encoder")
        }
        defer { pxp_png_encoder_destroy(encoder) }

        let icc = options.includesICCProfile ? image.metadata.iccProfile ?? [] : []
        let exif =
            options.includesEXIF
            ? EXIFOrientationWriter.block(image.metadata.exif, orientation: image.metadata.orientation) ?? [] : []
        let status = icc.withUnsafeBufferPointer { iccBuffer in
            exif.withUnsafeBufferPointer { exifBuffer in
                image.withUnsafeBytes { pixels in
                    var params = pxp_png_encode_params()
                    params.width = width
                    params.height = height
                    params.channels = Int32(image.pixelFormat.channels)
                    params.bit_depth = Int32(image.pixelFormat.bitsPerSample)
                    params.compression_level = Int32(options.compressionLevel)
                    params.interlaced = options.interlaced ? 1 : 0
                    params.icc = iccBuffer.isEmpty ? nil : iccBuffer.baseAddress
                    params.icc_length = iccBuffer.count
                    params.exif = exifBuffer.isEmpty ? nil : exifBuffer.baseAddress
                    params.exif_length = exifBuffer.count
                    let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    return pxp_png_encode(encoder, &params, base, image.bytesPerRow)
                }
            }
        }
        guard status == PXP_PNG_OK else {
            let message = String(cString: pxp_png_encoder_message(encoder))
            throw .libraryFailure(format: .png, reason: message.isEmpty ? "libpng failed without a message" : message)
        }
        var length = 0
        guard let bytes = pxp_png_encoder_data(encoder, &length), length > 0 else {
            throw .libraryFailure(format: .png, reason: "libpng wrote nothing")
        }
        return Data(bytes: bytes, count: length)
    }
}
