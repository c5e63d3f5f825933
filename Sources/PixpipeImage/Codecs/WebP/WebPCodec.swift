import Foundation

extension ImageFormat {
    /// WebP (lossy VP8, lossless VP8L, extended VP8X with alpha, animation and metadata).
    public static let webp = ImageFormat(rawValue: "webp")
}

/// WebP through libwebp: still and animated images, ICC and EXIF, scaled decoding for thumbnails, lossy and
/// lossless encoding, animation encoding.
///
/// Anomalies and what they cost are in ``WebPWarningTable``.
struct WebPCodec: ImageCodec {
    var format: ImageFormat { .webp }
    var fileExtensions: [String] { ["webp"] }
    var mediaTypes: [String] { ["image/webp"] }
    var warningRules: [WarningRule] { WebPWarningTable.rows }
    var canEncode: Bool { true }
    var defaultQuality: Int? { WebPEncodeOptions.defaultQuality }
    var canEncodeAnimation: Bool { true }
    var decodesAnimation: Bool { true }
    var hasLosslessMode: Bool { true }

    /// `RIFF`, a size, then `WEBP`.
    func matches(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && prefix[0..<4].elementsEqual("RIFF".utf8) && prefix[8..<12].elementsEqual("WEBP".utf8)
    }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let container = try WebPContainer(bytes)
        var metadata = WebPStillDecoder.baseMetadata(container)
        metadata.warnings = container.warnings
        let animation =
            container.isAnimated
            ? AnimationInfo(
                frameCount: container.frameCount, loopCount: container.loopCount, duration: container.duration)
            : nil
        return ImageInfo(
            format: .webp, width: container.width, height: container.height,
            pixelFormat: container.hasAlpha || container.isAnimated ? .rgba8 : .rgb8, metadata: metadata,
            animation: animation)
    }

    /// A still image decoded whole; an animation's first frame composited on its canvas.
    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let container = try WebPContainer(bytes)
        try options.checkPixels(width: container.width, height: container.height)
        guard container.isAnimated else {
            return try WebPStillDecoder.decode(bytes, container: container, options: options)
        }
        let decoder = try WebPAnimationDecoder(Data(bytes), container: container, options: options)
        guard let first = try decoder.nextFrame() else {
            throw .corrupt(format: .webp, reason: "the animation has no frames")
        }
        return first.image
    }

    /// Every frame of an animation; a still image decoded at 1/8 size by libwebp's rescaler (the whole
    /// bitstream is still decoded, but the output is small).
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        var info = try self.info(bytes)
        try options.checkPixels(width: info.width, height: info.height)
        let container = try WebPContainer(bytes)
        if container.isAnimated {
            try options.checkAnimation(width: info.width, height: info.height, frameCount: container.frameCount)
            let decoder = try WebPAnimationDecoder(Data(bytes), container: container, options: options)
            while let frame = try decoder.nextFrame() { info.metadata.warnings = frame.image.metadata.warnings }
        } else {
            let small = (width: max(1, info.width / 8), height: max(1, info.height / 8))
            let image = try WebPStillDecoder.decode(bytes, container: container, options: options, scaledTo: small)
            info.metadata.warnings = image.metadata.warnings
        }
        return info
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        let container = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in try WebPContainer(bytes) }
        guard container.isAnimated else {
            let image = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
                try WebPStillDecoder.decode(bytes, container: container, options: options)
            }
            return StillFrameDecoder(image)
        }
        try options.checkAnimation(width: container.width, height: container.height, frameCount: container.frameCount)
        return try WebPAnimationDecoder(data, container: container, options: options)
    }

    /// Still images are decoded straight at three times the target size by libwebp's rescaler (at full size
    /// only when that is no smaller), then finished by the thumbnailer's filter; an animation gives its
    /// first frame.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        try source.withBytes { (bytes) throws(ImageProcessingError) in
            let container = try Thumbnailer.decoding { () throws(ImageDecodingError) in try WebPContainer(bytes) }
            let info = try Thumbnailer.decoding { () throws(ImageDecodingError) in try self.info(bytes) }
            let plan = try thumbnailer.plan(for: info)
            let margin = Thumbnailer.shrinkMargin
            let wanted = (
                width: min(container.width, plan.storedWidth.multipliedReportingOverflow(by: margin).partialValue),
                height: min(container.height, plan.storedHeight.multipliedReportingOverflow(by: margin).partialValue)
            )
            let scaled = wanted.width < container.width && wanted.height < container.height ? wanted : nil
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                if container.isAnimated { return try decode(bytes, options: thumbnailer.fullDecodeOptions) }
                return try WebPStillDecoder.decode(
                    bytes, container: container, options: thumbnailer.fullDecodeOptions, scaledTo: scaled)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try WebPEncoder.encode(image, options: self.options(options, as: WebPEncodeOptions.self))
    }

    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        try WebPEncoder.encodeAnimation(
            frames, loopCount: loopCount, options: self.options(options, as: WebPEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .webp(
            WebPEncodeOptions(
                quality: settings.quality ?? WebPEncodeOptions.defaultQuality, lossless: settings.lossless,
                includesICCProfile: settings.keepsMetadata,
                includesEXIF: settings.keepsMetadata))
    }
}
