import CPixpipeImage

/// A step-by-step libpng reader over bytes in memory: header, transforms, rows, trailing chunks.
///
/// Each step maps to one guarded call in the C shim, so a libpng error becomes a thrown
/// ``ImageDecodingError`` and never a `longjmp` through Swift frames. A decode calls
/// ``readHeader()``, then ``prepareOutput(keeps16Bit:)``, then ``readRows(_:)`` or
/// ``readImage(_:)``, then ``readEnd()``; a streaming consumer can pull rows in bands instead.
/// The bytes passed at creation must stay valid for the reader's lifetime.
final class PNGReader {
    /// What the header and the chunks before the image data say.
    struct Header {
        /// Width in pixels.
        var width: Int
        /// Height in pixels.
        var height: Int
        /// Stored bits per sample (palette index depth for palette images).
        var bitDepth: Int
        /// The PNG colour type (0, 2, 3, 4 or 6).
        var colorType: Int32
        /// Whether the image is Adam7-interlaced.
        var isInterlaced: Bool
        /// Whether a tRNS chunk gives transparency.
        var hasTransparency: Bool
        /// The metadata chunks read so far.
        var chunks: PNGMetadataChunks
    }

    /// The rows the transforms produce.
    struct Output {
        /// The layout of each output pixel.
        var pixelFormat: PixelFormat
        /// Bytes per output row.
        var bytesPerRow: Int
        /// The passes over all rows that ``readRows(_:)`` needs (7 when interlaced, else 1).
        var passes: Int
    }

    /// How far a row read got before it failed.
    struct RowFailure: Error {
        /// The error to report.
        var error: ImageDecodingError
        /// Rows completed before the failure.
        var rowsRead: Int
    }

    private let decoder: OpaquePointer

    /// Whether reading stopped after the last row because far more compressed image data followed it
    /// than a valid stream's end: the rows are complete, the chunks after the image data were not read.
    /// Not an error (see ``PNGWarningTable/excessAfterLastRow``); ``readEnd()`` then reads nothing.
    private(set) var stoppedAfterLastRow = false

    /// The message of the stop after the last row, kept for its warning.
    private var stopMessage = ""

    /// A reader over `bytes`, which must outlive it.
    init(bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let decoder = pxp_png_decoder_create(base, bytes.count) else {
            throw .corrupt(format: .png, reason: "libpng could not allocate a decoder")
        }
        self.decoder = decoder
    }

    /// A reader over the open file `fileDescriptor`, read from its current offset in small pieces, never
    /// whole. The caller closes the descriptor after the reader is gone.
    init(fileDescriptor: Int32) throws(ImageDecodingError) {
        guard let decoder = pxp_png_decoder_create_fd(fileDescriptor) else {
            throw .corrupt(format: .png, reason: "libpng could not allocate a decoder")
        }
        self.decoder = decoder
    }

    deinit {
        pxp_png_decoder_destroy(decoder)
    }

    /// Reads the signature and every chunk before the first IDAT.
    func readHeader() throws(ImageDecodingError) -> Header {
        var info = pxp_png_info()
        try check(pxp_png_read_info(decoder, &info))
        return Header(
            width: Int(info.width), height: Int(info.height), bitDepth: Int(info.bit_depth),
            colorType: info.color_type, isInterlaced: info.interlaced != 0, hasTransparency: info.has_trns != 0,
            chunks: PNGMetadataChunks(info))
    }

    /// Sets the stored-sample transforms (see ``PNGDecoder``) and reports the output rows.
    func prepareOutput(keeps16Bit: Bool) throws(ImageDecodingError) -> Output {
        var output = pxp_png_output()
        try check(pxp_png_set_transforms(decoder, keeps16Bit ? 1 : 0, &output))
        guard let layout = PixelLayout(channels: Int(output.channels)), output.bit_depth == 8 || output.bit_depth == 16
        else {
            throw .corrupt(format: .png, reason: "unexpected output of \(output.channels) channels")
        }
        return Output(
            pixelFormat: PixelFormat(layout: layout, bitsPerSample: Int(output.bit_depth)),
            bytesPerRow: output.row_bytes, passes: Int(output.passes))
    }

    /// Where the first IDAT chunk's data starts in the bytes of a reader over memory, once the header is
    /// read and before any row is; `nil` for a reader over a file or once rows were read.
    var imageDataOffset: Int? {
        var offset = 0
        guard pxp_png_decoder_image_data_offset(decoder, &offset) != 0 else { return nil }
        return offset
    }

    /// Reads the next `rows.count` rows of the current pass into the given row buffers.
    func readRows(_ rows: [UnsafeMutablePointer<UInt8>?]) throws(RowFailure) {
        var rowsRead: UInt32 = 0
        let status = rows.withUnsafeBufferPointer { buffer in
            pxp_png_read_rows(decoder, buffer.baseAddress, UInt32(buffer.count), &rowsRead)
        }
        do throws(ImageDecodingError) {
            try check(status)
        } catch {
            throw RowFailure(error: error, rowsRead: Int(rowsRead))
        }
    }

    /// Reads every pass of the image into `rows`, one pointer per image row.
    func readImage(_ rows: [UnsafeMutablePointer<UInt8>?]) throws(ImageDecodingError) {
        let status = rows.withUnsafeBufferPointer { buffer in pxp_png_read_image(decoder, buffer.baseAddress) }
        try check(status)
    }

    /// Reads the chunks after the image data up to IEND; returns the metadata chunks, late ones included,
    /// or `nil` when reading stopped after the last row (``stoppedAfterLastRow``).
    func readEnd() throws(ImageDecodingError) -> PNGMetadataChunks? {
        guard !stoppedAfterLastRow else { return nil }
        var info = pxp_png_info()
        try check(pxp_png_read_end(decoder, &info))
        return PNGMetadataChunks(info)
    }

    private func check(_ status: pxp_png_status) throws(ImageDecodingError) {
        switch status {
        case PXP_PNG_OK: return
        case PXP_PNG_EXCESS_DATA:
            // Every row is stored: the stop is a benign warning, and libpng is not called again.
            stoppedAfterLastRow = true
            stopMessage = message
        case PXP_PNG_TRUNCATED: throw .truncated(format: .png, reason: message)
        default: throw .corrupt(format: .png, reason: message)
        }
    }

    /// Every warning libpng gave so far and the stop after the last row, classified by ``PNGWarningTable``:
    /// one per chunk type, with a count when it repeated.
    var warnings: [DecodeWarning] {
        var warnings: [DecodeWarning] = []
        for index in 0..<pxp_png_decoder_warning_kinds(decoder) {
            let rule = PNGWarningTable.rule(chunk: pxp_png_decoder_warning_chunk(decoder, index))
            let message = String(cString: pxp_png_decoder_warning_message(decoder, index))
            let repeats = Int(pxp_png_decoder_warning_repeats(decoder, index))
            warnings.append(rule.warning(repeats > 1 ? "\(message) (\(repeats) times)" : message))
        }
        if pxp_png_decoder_warning_overflow(decoder) != 0 {
            warnings.append(PNGWarningTable.overflow.warning("more distinct libpng warnings than recorded"))
        }
        if stoppedAfterLastRow { warnings.append(PNGWarningTable.excessAfterLastRow.warning(stopMessage)) }
        return warnings
    }

    private var message: String {
        let text = String(cString: pxp_png_decoder_message(decoder))
        return text.isEmpty ? "libpng failed without a message" : text
    }
}
