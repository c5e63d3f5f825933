import Foundation

extension ImageFormat {
    /// Portable Network Graphics.
    public static let png = ImageFormat(rawValue: "png")
}

/// PNG through libpng: every colour type and depth, Adam7, metadata chunks; thumbnails stream rows.
struct PNGCodec: ImageCodec {
    var format: ImageFormat { .png }
    var fileExtensions: [String] { ["png"] }
    var mediaTypes: [String] { ["image/png", "image/apng"] }
    var warningRules: [WarningRule] { PNGWarningTable.rows }
    var canEncode: Bool { true }
    var hasProgressiveMode: Bool { true }
    var writes16Bit: Bool { true }

    /// The eight-byte PNG signature.
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func matches(_ prefix: [UInt8]) -> Bool { prefix.starts(with: Self.signature) }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        try PNGDecoder.info(bytes)
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try PNGDecoder.decode(bytes, options: options)
    }

    /// Inflates and CRC-checks every row into one reused row buffer, never allocating the image; refuses
    /// exactly what a decode refuses.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        try PNGDecoder.verify(bytes, options: options)
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try PNGEncoder.encode(image, options: self.options(options, as: PNGEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .png(
            PNGEncodeOptions(
                interlaced: settings.progressive, includesICCProfile: settings.keepsMetadata,
                includesEXIF: settings.keepsMetadata))
    }

    /// Non-interlaced PNGs stream their rows through the resampler as libpng produces them, so peak memory
    /// does not grow with the source; interlaced ones are decoded whole under the pixel limit.
    func rowSource(path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)? {
        try PNGRowSource.open(path: path, options: options)
    }

    func rowFormat(for decoded: PixelFormat, options: any ImageEncodeOptions) -> PixelFormat? {
        guard let options = options as? PNGEncodeOptions, !options.interlaced else { return nil }
        return decoded
    }

    func rowWriter(_ header: RowStreamHeader, options: any ImageEncodeOptions, descriptor: Int32) throws
        -> any RowWriter
    {
        try PNGRowWriter(header, options: self.options(options, as: PNGEncodeOptions.self), descriptor: descriptor)
    }

    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        let (reader, header) = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            let reader =
                switch source {
                case .bytes(let bytes): try PNGReader(bytes: bytes)
                case .file(let file): try PNGReader(fileDescriptor: file.descriptor)
                }
            return (reader, try reader.readHeader())
        }
        var early = ImageMetadata()
        header.chunks.apply(to: &early)
        let options = thumbnailer.options
        let plan = try Thumbnailer.Plan(
            width: header.width, height: header.height, orientation: early.orientation, format: .png, options)
        if header.isInterlaced {
            // Adam7 rows arrive in seven passes, so the picture only exists once all of it is decoded.
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                try PNGDecoder.decode(reader, header: header, options: thumbnailer.fullDecodeOptions)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
        try thumbnailer.checkAllocation(width: plan.storedWidth, height: plan.storedHeight)
        let resized = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            try PNGStreamingResizer(reader: reader, header: header, options: options)
                .resize(toWidth: plan.storedWidth, height: plan.storedHeight)
        }
        // A late eXIf chunk may bring an orientation the plan did not know; the small result is resized again.
        let late = try Thumbnailer.Plan(
            width: header.width, height: header.height, orientation: resized.metadata.orientation, format: .png,
            options)
        return try thumbnailer.finish(resized, plan: late)
    }
}
