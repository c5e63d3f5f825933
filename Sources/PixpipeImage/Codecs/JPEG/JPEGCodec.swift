import Foundation

extension ImageFormat {
    /// JPEG (JFIF or EXIF).
    public static let jpeg = ImageFormat(rawValue: "jpeg")
}

/// JPEG through libjpeg-turbo: baseline, progressive and arithmetic coding, CMYK; DCT-scaled decoding for
/// thumbnails and verification.
struct JPEGCodec: ImageCodec {
    var format: ImageFormat { .jpeg }
    var fileExtensions: [String] { ["jpg", "jpeg", "jpe", "jfif"] }
    var mediaTypes: [String] { ["image/jpeg", "image/pjpeg"] }
    var warningRules: [WarningRule] {
        JPEGWarningTable.rows.map(\.rule) + [JPEGWarningTable.unknown, JPEGWarningTable.damagedTail]
    }
    var canEncode: Bool { true }
    var defaultQuality: Int? { JPEGEncodeOptions.defaultQuality }
    var hasProgressiveMode: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { prefix.starts(with: [0xFF, 0xD8, 0xFF]) }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        try JPEGDecoder.info(bytes)
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try JPEGDecoder.decode(bytes, options: options)
    }

    /// A 1/8 decode that keeps no pixels (``JPEGDecoder/verify(_:options:)``): libjpeg still entropy-decodes
    /// every coefficient, so truncation and damage are seen, but skips most of the inverse DCT and, for
    /// YCbCr files, all of the chroma and colour work. The pixel limit keeps its meaning (the image's
    /// full size), though the check decodes far fewer pixels. The warnings are the whole decode's.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        let reader = try JPEGReader(bytes: bytes, pixelLimit: options.pixelLimit)
        var info = try JPEGDecoder.info(reader)
        try options.checkPixels(width: info.width, height: info.height)
        var reduced = options
        reduced.jpegScale = .eighths(1)
        info.metadata.warnings = try JPEGDecoder.verify(reader, options: reduced)
        return info
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try JPEGEncoder.encode(image, options: self.options(options, as: JPEGEncodeOptions.self))
    }

    func rowSource(path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)? {
        try JPEGRowSource.open(path: path, options: options)
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .jpeg(
            JPEGEncodeOptions(
                quality: settings.quality ?? JPEGEncodeOptions.defaultQuality, progressive: settings.progressive,
                includesICCProfile: settings.keepsMetadata, includesEXIF: settings.keepsMetadata))
    }

    /// Decodes at the smallest fast DCT scale (1/8, 2/8, 4/8, 8/8) that keeps at least three times the target
    /// size, then lets the thumbnailer resample with its filter. A progressive file decoded at 1/8 or 2/8
    /// reads only the scans that decode needs (``ProgressiveJPEGScanFilter``), unless the options ask for the
    /// whole source.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        let options = thumbnailer.options
        let reader = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            switch source {
            case .bytes(let bytes): try JPEGReader(bytes: bytes, pixelLimit: options.pixelLimit)
            case .file(let file): try JPEGReader(fileDescriptor: file.descriptor, pixelLimit: options.pixelLimit)
            }
        }
        let info = try Thumbnailer.decoding { () throws(ImageDecodingError) in try JPEGDecoder.info(reader) }
        let plan = try thumbnailer.plan(for: info)
        let numerator = Thumbnailer.jpegScaleNumerator(
            width: info.width, height: info.height, targetWidth: plan.storedWidth, targetHeight: plan.storedHeight)
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: nil, strictness: options.strictness,
            jpegScale: .eighths(numerator))
        let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
            if !options.decodesWholeSource,
                let reduced = try JPEGDecoder.decodeReducedFromNeededScans(
                    reader, numerator: numerator, options: decodeOptions,
                    filter: { (dropping) throws(ImageDecodingError) in
                        switch source {
                        case .bytes(let bytes): return dropping(bytes)
                        case .file(let file): return try file.readAll().withUnsafeBytes(dropping)
                        }
                    })
            {
                return reduced
            }
            return try JPEGDecoder.decode(reader, options: decodeOptions)
        }
        return try thumbnailer.finish(image, plan: plan)
    }
}
