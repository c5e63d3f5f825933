import Foundation

extension ImageFormat {
    /// AV1 Image File Format (still images and `avis` image sequences).
    public static let avif = ImageFormat(rawValue: "avif")
}

/// AVIF through libavif 0.11 (AV1 decoded by dav1d, encoded by aom): 8, 10 and 12 bits, 4:2:0, 4:2:2,
/// 4:4:4 and monochrome, alpha, grids, ICC and EXIF, `irot`/`imir` as orientation, image sequences.
///
/// Pixels match `avifdec` exactly (see ``AVIFPixels``): the `clap` crop is reported in
/// ``ImageMetadata/cleanAperture``, not applied (`avifdec` 0.11 writes the whole coded image), and
/// `irot`/`imir` in ``ImageMetadata/orientation``, like EXIF orientation; ``Image/applyingOrientation()``
/// applies both, the crop first (see ``AVIFCleanAperture``).
///
/// What libavif reports, and what the decoder does with it:
///
/// | libavif | strict | lenient | why |
/// |---|---|---|---|
/// | a refusal whose message starts `[Strict]` (odd `clap` offsets, no `pixi`, alpha without `ispe`) | decode, warning | decode, warning | the image is whole; browsers show these files, so the file is parsed again with `strictFlags` off |
/// | success, but the last top-level box runs past the end of the file | decode, warning | decode, warning | every box the image needs was whole |
/// | a `clap` box that names no whole rectangle inside the image (`avif-clap-ignored`) | decode, warning, no crop | decode, warning, no crop | the pixels are whole; showing all of them loses nothing |
/// | `TRUNCATED_DATA`, or any refusal of a file whose last top-level box is cut | `.truncated` | `.truncated` (a sequence ends after its last whole frame, with a warning) | pixels are missing; a still AV1 image is all or nothing |
/// | `BMFF_PARSE_FAILED`, `INVALID_FTYP`, `NO_CONTENT`, `NO_AV1_ITEMS_FOUND`, `DECODE_COLOR_FAILED`, `DECODE_ALPHA_FAILED`, `ISPE_SIZE_MISMATCH`, `COLOR_ALPHA_SIZE_MISMATCH`, `INVALID_IMAGE_GRID`, other codes | `.corrupt` | `.corrupt` (a sequence ends after its last whole frame, with a warning) | the boxes or the AV1 data are damaged |
/// | `NOT_IMPLEMENTED`, `REFORMAT_FAILED`, `UNSUPPORTED_DEPTH`, `NO_CODEC_AVAILABLE` | `.unsupportedFeature` | `.unsupportedFeature` | a valid file libavif cannot convert (for example BT.2020 constant-luminance colour) |
/// | a refusal under our `imageSizeLimit`/`imageCountLimit` | `.tooLarge`, `.tooManyFrames`, `.animationTooLarge` | same | the header declares more than the limits allow |
struct AVIFCodec: ImageCodec {
    var format: ImageFormat { .avif }
    var fileExtensions: [String] { ["avif", "avifs"] }
    var mediaTypes: [String] { ["image/avif", "image/avif-sequence"] }
    var warningRules: [WarningRule] { AVIFWarningTable.rows }
    var canEncode: Bool { true }
    var defaultQuality: Int? { AVIFEncodeOptions.defaultQuality }
    var canEncodeAnimation: Bool { true }
    var decodesAnimation: Bool { true }
    var hasLosslessMode: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { ISOBMFFBrands.family(prefix) == .avif }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let handle = try AVIFDecoderHandle(bytes: bytes, limits: .lifted)
        return Self.info(of: handle)
    }

    /// The header of a parsed file: size, the default decode's pixel format (16 bits for deeper sources, as
    /// `keeps16Bit` gives), metadata, and the frames of a sequence.
    static func info(of handle: AVIFDecoderHandle) -> ImageInfo {
        let avif = handle.image.pointee
        let pixelFormat = AVIFPixels.pixelFormat(
            yuvFormat: avif.yuvFormat, depth: Int(avif.depth), hasAlpha: handle.hasAlpha, keeps16Bit: true)
        let animation =
            handle.imageCount > 1
            ? AnimationInfo(frameCount: handle.imageCount, loopCount: 0, duration: handle.duration) : nil
        return ImageInfo(
            format: .avif, width: handle.width, height: handle.height, pixelFormat: pixelFormat,
            metadata: AVIFPixels.metadata(of: avif, warnings: handle.warnings), animation: animation)
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let handle = try Self.open(bytes, options: options)
        try options.checkPixels(width: handle.width, height: handle.height)
        _ = try handle.nextImage()
        let metadata = AVIFPixels.metadata(of: handle.image.pointee, warnings: handle.warnings)
        return try AVIFPixels.image(handle, metadata: metadata, options: options)
    }

    /// Decodes every frame's AV1 data (no colour conversion), so a damaged later frame is found too.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        let handle = try Self.open(bytes, options: options)
        try options.checkAnimation(width: handle.width, height: handle.height, frameCount: handle.imageCount)
        for _ in 0..<handle.imageCount { _ = try handle.nextImage() }
        return Self.info(of: handle)
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        try AVIFFrameDecoder(data: data, options: options)
    }

    /// Parses `bytes` with libavif's limits set from `options`.
    static func open(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError)
        -> AVIFDecoderHandle
    {
        try AVIFDecoderHandle(
            bytes: bytes, limits: .init(pixelLimit: options.pixelLimit, frameLimit: options.frameLimit),
            readsPastCut: options.strictness == .lenient)
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try AVIFEncoder.encode(image, options: self.options(options, as: AVIFEncodeOptions.self))
    }

    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        try AVIFEncoder.encodeAnimation(frames, options: self.options(options, as: AVIFEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .avif(
            AVIFEncodeOptions(
                // Quality 100 is AVIF's lossless mode (see AVIFEncodeOptions).
                quality: settings.lossless ? 100 : settings.quality ?? AVIFEncodeOptions.defaultQuality,
                includesICCProfile: settings.keepsMetadata, includesEXIF: settings.keepsMetadata))
    }
}
