import CPixpipeJXL

/// Decodes a JPEG XL file's displayed frames one at a time (libjxl coalesces them onto the canvas), pixels
/// as stored (orientation in the metadata), alpha straight.
final class JXLFrameReader {
    private let handle: JXLDecoderHandle
    private let options: DecodeOptions
    let info: JxlBasicInfo
    let pixelFormat: PixelFormat
    private(set) var iccProfile: [UInt8]?
    /// The failure that ended the read: libjxl may still point at a frame array freed with it, so it is
    /// never asked to go on.
    private var failure: ImageDecodingError?

    var width: Int { Int(info.xsize) }
    var height: Int { Int(info.ysize) }
    /// The `Exif` and `xml ` boxes met so far.
    var boxes: [String: [UInt8]] { handle.boxes }

    /// Reads up to the colour encoding; the pixel limit is checked from the basic info, before any pixel
    /// buffer exists in libjxl or here.
    /// `unpremultiplies` off keeps premultiplied alpha as stored (only the test comparing with libjxl's
    /// default output asks for it).
    init(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions, unpremultiplies: Bool = true)
        throws(ImageDecodingError)
    {
        handle = try JXLDecoderHandle(
            bytes: bytes,
            events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE, JXL_DEC_BOX],
            threads: true, unpremultiplies: unpremultiplies)
        self.options = options
        var basic: JxlBasicInfo?
        while true {
            let status = try handle.next()
            if status == JXL_DEC_BASIC_INFO {
                let read = try handle.basicInfo()
                try options.checkPixels(width: Int(read.xsize), height: Int(read.ysize))
                basic = read
            } else if status == JXL_DEC_COLOR_ENCODING {
                iccProfile = handle.iccProfile()
                break
            } else if status == JXL_DEC_SUCCESS {
                throw .corrupt(format: .jxl, reason: "the file holds no image")
            }
        }
        guard let basic else { throw .corrupt(format: .jxl, reason: "no basic info") }
        info = basic
        pixelFormat = JXLHeader.pixelFormat(basic, keeps16Bit: options.keeps16Bit)
    }

    /// libjxl's description of ``pixelFormat``: interleaved, native byte order.
    private var jxlFormat: JxlPixelFormat {
        JxlPixelFormat(
            num_channels: UInt32(pixelFormat.channels),
            data_type: pixelFormat.bitsPerSample == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
            endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    /// The next displayed frame's pixels and duration, or `nil` after the last.
    ///
    /// libjxl writes the frame straight into the array returned: a copy out of a buffer of its own would
    /// hold the pixels twice at the peak (a 12 MP photo's 36 MB).
    func nextFrame() throws(ImageDecodingError) -> (pixels: [UInt8], duration: Duration)? {
        var duration = Duration.zero
        var format = jxlFormat
        if let failure { throw failure }
        let size = width * height * pixelFormat.bytesPerPixel
        var ended = false
        // Capacity untouched until libjxl writes it, so the end of the frames costs no memory.
        let pixels = [UInt8](unsafeUninitializedCapacity: size) { storage, count in
            var given = false
            do throws(ImageDecodingError) {
                while true {
                    switch try handle.next() {
                    case JXL_DEC_FRAME:
                        duration = JXLHeader.duration(ticks: try handle.frameHeader().duration, info: info)
                    case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                        var needed = 0
                        guard pxp_JxlDecoderImageOutBufferSize(handle.decoder, &format, &needed) == JXL_DEC_SUCCESS,
                            needed == size
                        else { throw .corrupt(format: .jxl, reason: "unexpected output size") }
                        _ = pxp_JxlDecoderSetImageOutBuffer(handle.decoder, &format, storage.baseAddress, size)
                        given = true
                    case JXL_DEC_FULL_IMAGE:
                        guard given else { throw .corrupt(format: .jxl, reason: "a frame without pixels") }
                        count = size
                        return
                    case JXL_DEC_SUCCESS:
                        ended = true
                        return
                    default:
                        continue
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return ended ? nil : (pixels, duration)
    }

    /// Reads on to the end of the file for the boxes after the codestream (a still image: no pixels left).
    func readToEnd() throws(ImageDecodingError) {
        if let failure { throw failure }
        while try handle.next() != JXL_DEC_SUCCESS {}
    }

    /// The metadata of the decoded image.
    var metadata: ImageMetadata { JXLHeader.metadata(info, icc: iccProfile, boxes: boxes) }
}
