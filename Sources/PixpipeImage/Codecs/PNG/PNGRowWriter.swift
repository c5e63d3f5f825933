import CPixpipeImage
import Foundation

/// Writes a PNG to an open file row by row through libpng's `png_write_row`, as ``PNGEncoder`` would
/// encode the whole image (same IHDR, compression, iCCP and eXIf), holding only zlib's state and a
/// 64 KiB output buffer. Adam7 needs every row before the first pass is written, so it is not offered.
final class PNGRowWriter: RowWriter {
    private let encoder: OpaquePointer
    private let header: RowStreamHeader

    /// Starts the file: signature, IHDR and the metadata chunks `options` asks for.
    init(_ header: RowStreamHeader, options: PNGEncodeOptions, descriptor: Int32) throws {
        guard (0...9).contains(options.compressionLevel) else {
            throw ImageEncodingError.invalidOption("PNG compression level \(options.compressionLevel) is not in 0...9")
        }
        guard !options.interlaced, let width = UInt32(exactly: header.width),
            let height = UInt32(exactly: header.height), width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF
        else {
            throw ImageEncodingError.unsupportedPixelFormat(header.pixelFormat, format: .png)
        }
        guard let encoder = pxp_png_encoder_create() else {
            throw ImageEncodingError.libraryFailure(format: .png, reason: "libpng could not allocate an encoder")
        }
        self.encoder = encoder
        self.header = header
        let metadata = header.metadata
        let icc = options.includesICCProfile ? metadata.iccProfile ?? [] : []
        let exif =
            options.includesEXIF
            ? EXIFOrientationWriter.block(metadata.exif, orientation: metadata.orientation) ?? [] : []
        let status = icc.withUnsafeBufferPointer { iccBuffer in
            exif.withUnsafeBufferPointer { exifBuffer in
                var params = pxp_png_encode_params()
                params.width = width
                params.height = height
                params.channels = Int32(header.pixelFormat.channels)
                params.bit_depth = Int32(header.pixelFormat.bitsPerSample)
                params.compression_level = Int32(options.compressionLevel)
                params.interlaced = 0
                params.icc = iccBuffer.isEmpty ? nil : iccBuffer.baseAddress
                params.icc_length = iccBuffer.count
                params.exif = exifBuffer.isEmpty ? nil : exifBuffer.baseAddress
                params.exif_length = exifBuffer.count
                return pxp_png_encoder_start_fd(encoder, &params, descriptor)
            }
        }
        try check(status)
    }

    deinit { pxp_png_encoder_destroy(encoder) }

    func write(_ band: Image) throws {
        let status = band.withUnsafeBytes { pixels in
            pxp_png_encoder_write_rows(
                encoder, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), band.bytesPerRow,
                UInt32(band.height))
        }
        try check(status)
    }

    func finish() throws {
        try check(pxp_png_encoder_finish_fd(encoder))
    }

    /// A failed write to the file is the file's failure; anything else is libpng's.
    private func check(_ status: pxp_png_status) throws {
        guard status != PXP_PNG_OK else { return }
        let code = pxp_png_encoder_write_errno(encoder)
        if code != 0 { throw AtomicFileWriter.Failure(step: .write, path: "the output file", code: code) }
        let message = String(cString: pxp_png_encoder_message(encoder))
        throw ImageEncodingError.libraryFailure(
            format: .png, reason: message.isEmpty ? "libpng failed without a message" : message)
    }
}
