import CLibGIF

/// One giflib decoder (`GifFileType`) reading a ``GIFInput`` record by record through the low-level API.
///
/// giflib's low-level reader keeps a copy of every image descriptor it has read (`SavedImages`, grown by one
/// per frame, with each local colour table copied): after each descriptor this handle frees that list and
/// resets the count, so walking a file of a million frames holds one descriptor, not a million.
final class GIFHandle {
    /// A record, as `DGifGetRecordType` reads its first byte.
    enum Record {
        /// An image descriptor (`,`): a frame follows.
        case image
        /// An extension (`!`).
        case `extension`
        /// The trailer (`;`).
        case trailer
        /// No byte is left where a record should start: the file ends without its trailer.
        case endOfData
    }

    /// An image descriptor: the frame's rectangle on the canvas, interlacing and local colour table.
    struct Descriptor {
        /// Left edge on the canvas.
        var left: Int
        /// Top edge on the canvas.
        var top: Int
        /// Width of the frame's rows.
        var width: Int
        /// Number of rows.
        var height: Int
        /// Whether rows are stored in the four interlace passes.
        var isInterlaced: Bool
        /// The local colour table, when the frame has one.
        var palette: GIFPalette?
    }

    private let file: UnsafeMutablePointer<GifFileType>
    /// The bytes; kept alive as long as giflib may call back into them.
    let input: GIFInput

    /// Opens `input` from its first byte and reads the header and logical screen descriptor (`DGifOpen`).
    init(_ input: GIFInput) throws(ImageDecodingError) {
        input.rewind()
        self.input = input
        var error: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), GIFInput.readFunction, &error) else {
            throw Self.error(code: error, input: input, during: "the header")
        }
        self.file = file
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
    }

    /// The canvas (logical screen) width.
    var canvasWidth: Int { Int(file.pointee.SWidth) }
    /// The canvas height.
    var canvasHeight: Int { Int(file.pointee.SHeight) }
    /// The background colour's index into the global colour table (0...255).
    var backgroundIndex: Int { Int(file.pointee.SBackGroundColor) & 0xFF }
    /// The global colour table, when the file has one.
    var globalPalette: GIFPalette? { GIFPalette(file.pointee.SColorMap) }

    /// The next record's kind.
    func nextRecord() throws(ImageDecodingError) -> Record {
        let atEnd = input.isAtEnd
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(file, &type) == GIF_OK else {
            if atEnd { return .endOfData }
            throw failure(during: "a record type")
        }
        switch type {
        case IMAGE_DESC_RECORD_TYPE: return .image
        case EXTENSION_RECORD_TYPE: return .extension
        case TERMINATE_RECORD_TYPE: return .trailer
        default: throw .corrupt(format: .gif, reason: "unknown record type")
        }
    }

    /// Reads an image descriptor (after ``Record/image``) and readies the LZW decoder for its data.
    func readDescriptor() throws(ImageDecodingError) -> Descriptor {
        guard DGifGetImageDesc(file) == GIF_OK else { throw failure(during: "an image descriptor") }
        let image = file.pointee.Image
        let descriptor = Descriptor(
            left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
            isInterlaced: image.Interlace, palette: GIFPalette(image.ColorMap))
        // The low-level API needs none of the saved copies; dropping them keeps memory flat over many frames.
        GifFreeSavedImages(file)
        file.pointee.ImageCount = 0
        return descriptor
    }

    /// Decodes the frame's next stored row into `row` (the frame's width, at least one pixel).
    func readRow(_ row: UnsafeMutableBufferPointer<UInt8>) throws(ImageDecodingError) {
        guard DGifGetLine(file, row.baseAddress, Int32(row.count)) == GIF_OK else {
            throw failure(during: "a frame's image data")
        }
    }

    /// Skips the frame's LZW data block by block without decoding it (`DGifGetCode`, `DGifGetCodeNext`).
    func skipImageData() throws(ImageDecodingError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(file, &codeSize, &block) == GIF_OK else { throw failure(during: "a frame's image data") }
        while block != nil {
            guard DGifGetCodeNext(file, &block) == GIF_OK else { throw failure(during: "a frame's image data") }
        }
    }

    /// Reads an extension (after ``Record/extension``): its label and its first two sub-blocks, which is all
    /// the graphic control and NETSCAPE2.0 extensions use; later sub-blocks are read and dropped.
    func readExtension() throws(ImageDecodingError) -> (label: Int, blocks: [[UInt8]]) {
        var label: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &label, &block) == GIF_OK else { throw failure(during: "an extension") }
        var blocks: [[UInt8]] = []
        while let current = block {
            // giflib hands each sub-block with its length byte first.
            if blocks.count < 2 {
                blocks.append(Array(UnsafeBufferPointer(start: current + 1, count: Int(current[0]))))
            }
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw failure(during: "an extension") }
        }
        return (Int(label), blocks)
    }

    /// The typed error for giflib's last error code.
    private func failure(during part: String) -> ImageDecodingError {
        Self.error(code: file.pointee.Error, input: input, during: part)
    }

    /// Classifies a giflib error code (`D_GIF_ERR_*`); see ``GIFCodec`` for the table.
    static func error(code: Int32, input: GIFInput, during part: String) -> ImageDecodingError {
        // A short read is giflib's only view of the end of the data; the input knows whether it was one.
        if input.ranPastEnd { return .truncated(format: .gif, reason: "the file ends inside \(part)") }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        switch code {
        case D_GIF_ERR_EOF_TOO_SOON:
            return .corrupt(format: .gif, reason: "the image data ends before the frame is complete")
        case D_GIF_ERR_IMAGE_DEFECT, D_GIF_ERR_DATA_TOO_BIG, D_GIF_ERR_WRONG_RECORD, D_GIF_ERR_NOT_GIF_FILE,
            D_GIF_ERR_NO_SCRN_DSCR, D_GIF_ERR_NO_IMAG_DSCR, D_GIF_ERR_NO_COLOR_MAP:
            return .corrupt(format: .gif, reason: "\(message) (in \(part))")
        case D_GIF_ERR_READ_FAILED:
            // Without a short read, giflib uses this code for an LZW code size over 8 bits.
            return .corrupt(format: .gif, reason: "invalid LZW code size (in \(part))")
        default:
            return .corrupt(format: .gif, reason: "\(message) (in \(part))")
        }
    }
}
