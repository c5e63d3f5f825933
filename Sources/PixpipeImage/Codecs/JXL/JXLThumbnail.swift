import CPixpipeJXL

extension JXLCodec {
    /// A thumbnail no bigger than 1/8 of a still image is made from its DC image (libjxl's progressive
    /// detail `kDC`: the 8x8-block averages a VarDCT frame stores before its AC coefficients), so the AC
    /// coefficients are neither read nor transformed; as the JPEG thumbnailer uses DCT scaling. Files without
    /// a DC stage (modular: lossless or lossy modular) and animations decode in full.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        try source.withBytes { (bytes) throws(ImageProcessingError) in
            let info = try Thumbnailer.decoding { () throws(ImageDecodingError) in try self.info(bytes) }
            let plan = try thumbnailer.plan(for: info)
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                let small = plan.storedWidth * 8 <= info.width && plan.storedHeight * 8 <= info.height
                if small, info.animation == nil {
                    return try JXLCodec.dcImage(bytes, options: thumbnailer.fullDecodeOptions)
                }
                return try decode(bytes, options: thumbnailer.fullDecodeOptions)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
    }

    /// The first frame's DC image at 1/8 size (rounded up) when libjxl reaches the DC stage, or the whole
    /// image when the frame has none. libjxl 0.7 flushes the DC upsampled to the full size, so the full-size
    /// buffer is still allocated (under the pixel limit); one pixel per 8x8 block is kept, from its centre.
    static func dcImage(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let handle = try JXLDecoderHandle(
            bytes: bytes,
            events: [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME_PROGRESSION, JXL_DEC_FULL_IMAGE],
            threads: true)
        _ = pxp_JxlDecoderSetProgressiveDetail(handle.decoder, kDC)
        var basic: JxlBasicInfo?
        var icc: [UInt8]?
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        while true {
            switch try handle.next() {
            case JXL_DEC_BASIC_INFO:
                let info = try handle.basicInfo()
                try options.checkPixels(width: Int(info.xsize), height: Int(info.ysize))
                basic = info
            case JXL_DEC_COLOR_ENCODING:
                icc = handle.iccProfile()
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                guard let basic else { throw .corrupt(format: .jxl, reason: "no basic info") }
                var format = pixelFormat(basic)
                var size = 0
                guard pxp_JxlDecoderImageOutBufferSize(handle.decoder, &format, &size) == JXL_DEC_SUCCESS else {
                    throw .corrupt(format: .jxl, reason: "no output size")
                }
                buffer = .allocate(byteCount: size, alignment: 16)
                _ = pxp_JxlDecoderSetImageOutBuffer(handle.decoder, &format, buffer!.baseAddress, size)
            case JXL_DEC_FRAME_PROGRESSION:
                guard let basic, let buffer, pxp_JxlDecoderFlushImage(handle.decoder) == JXL_DEC_SUCCESS else {
                    continue
                }
                return image(buffer, info: basic, icc: icc, step: 8)
            case JXL_DEC_FULL_IMAGE:
                guard let basic, let buffer else { throw .corrupt(format: .jxl, reason: "a frame without pixels") }
                return image(buffer, info: basic, icc: icc, step: 1)
            case JXL_DEC_SUCCESS:
                throw .corrupt(format: .jxl, reason: "the file holds no frame")
            default:
                continue
            }
        }
    }

    /// 8-bit interleaved output, gray or RGB, with alpha when the file has one.
    private static func pixelFormat(_ info: JxlBasicInfo) -> JxlPixelFormat {
        let format = JXLHeader.pixelFormat(info, keeps16Bit: false)
        return JxlPixelFormat(
            num_channels: UInt32(format.channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    /// Every `step`-th pixel of the full-size 8-bit `buffer`, from the centre of each `step` x `step` block.
    private static func image(
        _ buffer: UnsafeMutableRawBufferPointer, info: JxlBasicInfo, icc: [UInt8]?, step: Int
    ) -> Image {
        let format = JXLHeader.pixelFormat(info, keeps16Bit: false)
        let width = Int(info.xsize)
        let height = Int(info.ysize)
        let channels = format.channels
        let outWidth = (width + step - 1) / step
        let outHeight = (height + step - 1) / step
        let source = UnsafeRawBufferPointer(buffer).bindMemory(to: UInt8.self)
        let pixels = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * channels) { out, count in
            for y in 0..<outHeight {
                let row = min(y * step + step / 2, height - 1) * width
                for x in 0..<outWidth {
                    let from = (row + min(x * step + step / 2, width - 1)) * channels
                    let to = (y * outWidth + x) * channels
                    for channel in 0..<channels { out[to + channel] = source[from + channel] }
                }
            }
            count = outWidth * outHeight * channels
        }
        return Image(
            width: outWidth, height: outHeight, pixelFormat: format, pixels: pixels,
            metadata: JXLHeader.metadata(info, icc: icc, boxes: [:]))
    }
}
