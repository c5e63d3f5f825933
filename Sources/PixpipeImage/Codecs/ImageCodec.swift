import Foundation

/// One format's codec: how to recognise it, read its header, decode, verify, thumbnail and encode it.
///
/// Every caller (``Image/init(data:options:)``, ``Image/info(data:options:)``, the thumbnailer, the
/// encoder, the downloader's verification, the command line, the scripts' fuzz list and the codec contract
/// test) goes through ``ImageCodecs/all``, so a new format is one folder under `Codecs/` with a type
/// conforming to this protocol, plus one line in ``ImageCodecs/builtIn``. A library user's codec is the
/// smaller public ``ImageDecoding``, registered at run time. Only ``format``, ``fileExtensions``, ``mediaTypes`` and ``matches(_:)`` are required; the
/// defaults below say what a codec without a decoder or an encoder does.
///
/// Strictness: a decoding codec keeps ONE warning table beside it (`Codecs/<Format>/<Format>WarningTable.swift`,
/// like `JPEGWarningTable` and `PNGWarningTable`): every problem its library reports, keyed by the
/// library's own code (or, without codes, its error path and position), maps to a ``WarningRule`` (kind,
/// stable short code `<format>-<what>`, reason). The decoder turns each report into a ``DecodeWarning``
/// through its rule, puts every warning in the metadata, and calls ``DecodeOptions/enforce(_:format:)``
/// after each step, which throws in strict mode only for `.truncated` and `.corrupt` warnings; `.benign`
/// ones (the image is whole) never throw. ``info(_:)`` fills the warnings the header already shows.
/// Each row also goes into the README's "Strictness" table with its reason.
protocol ImageCodec: Sendable {
    /// The format this codec reads and writes.
    var format: ImageFormat { get }
    /// The file extensions that name the format, the usual one first (`["jpg", "jpeg"]`).
    var fileExtensions: [String] { get }
    /// The media types servers use for it.
    var mediaTypes: [String] { get }
    /// Whether ``decode(_:options:)`` and ``info(_:)`` are implemented.
    var canDecode: Bool { get }
    /// Whether ``encode(_:options:)`` is implemented.
    var canEncode: Bool { get }
    /// The quality the encoder uses when ``StandardEncodeSettings/quality`` is `nil`, or `nil` when the
    /// encoder takes no quality (lossless-only formats). Help texts read it from here.
    var defaultQuality: Int? { get }
    /// Whether the encoder has a progressive or interlaced mode.
    var hasProgressiveMode: Bool { get }
    /// Whether ``frameDecoder(_:options:)`` reads the frames of an animation (not pages, not a still as one
    /// frame), so that help texts can name the animated inputs.
    var decodesAnimation: Bool { get }
    /// Whether ``encodeAnimation(_:loopCount:options:)`` is implemented.
    var canEncodeAnimation: Bool { get }
    /// Whether the encoder has a lossless mode beside its lossy one (``StandardEncodeSettings/lossless``).
    var hasLosslessMode: Bool { get }
    /// Whether the encoder stores 16-bit samples as they are (others reduce them to 8 bits).
    var writes16Bit: Bool { get }
    /// Whether the encoder keeps samples deeper than 8 bits: 16-bit ones as they are, or at 10 bits (HEIC),
    /// so that a converter hands it 16-bit samples rather than 8-bit ones.
    var keepsDeepSamples: Bool { get }
    /// Every row of the codec's warning table (`<Format>WarningTable.rows`), so that tests check every
    /// table's codes; empty for a codec without one.
    var warningRules: [WarningRule] { get }

    /// Whether `prefix` (the first ``ImageCodecs/signatureLength`` bytes, or fewer when the input is
    /// shorter) starts a file of this format. Magic bytes only.
    func matches(_ prefix: [UInt8]) -> Bool

    /// What the header says, without decoding pixels.
    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo

    /// Decodes the image; checks the pixel limit from the header before allocating.
    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image

    /// Proves the bytes a whole, undamaged image with the least work that still reads every byte of the
    /// image data, and returns the header; the pixel limit applies to the image's full size.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo

    /// The thumbnail `thumbnailer` asks for, decoding no more of `source` than it needs.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image

    /// A frame-by-frame decoder over `data`; the default decodes a still image as one frame. Animated
    /// codecs read the canvas, frame count and loop count from the header here, before any frame.
    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder

    /// Encodes `image` with `options`, which are this codec's own options type.
    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data

    /// Encodes `frames` (all of one size) as an animation with `options`, this codec's own options type.
    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data

    /// The encoding the command line and the thumbnail encoder use when only the common settings are known,
    /// or `nil` when the codec has no encoder.
    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding?
    /// A source of the rows of the file at `path` (sniffed as this format), or `nil` when this format (or
    /// this file) is decoded whole (see ``StreamedConversion``).
    func rowSource(path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)?
    /// The pixel format a row writer with `options` takes for rows decoded as `decoded`, or `nil` when
    /// these options encode whole images only.
    func rowFormat(for decoded: PixelFormat, options: any ImageEncodeOptions) -> PixelFormat?
    /// A writer of `header`'s rows to the open file `descriptor`, where ``rowFormat(for:options:)`` is not `nil`.
    func rowWriter(_ header: RowStreamHeader, options: any ImageEncodeOptions, descriptor: Int32) throws
        -> any RowWriter
}

extension ImageCodec {
    var canDecode: Bool { true }
    var canEncode: Bool { false }
    var defaultQuality: Int? { nil }
    /// Whether the encoder reads ``StandardEncodeSettings/quality`` (lossy formats): those with a default.
    var usesQuality: Bool { defaultQuality != nil }
    var hasProgressiveMode: Bool { false }
    var decodesAnimation: Bool { false }
    var canEncodeAnimation: Bool { false }
    var hasLosslessMode: Bool { false }
    var writes16Bit: Bool { false }
    var keepsDeepSamples: Bool { writes16Bit }
    var warningRules: [WarningRule] { [] }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        throw .unsupportedFormat()
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        throw .unsupportedFormat()
    }

    /// A full decode: every codec that has no cheaper complete read.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        let image = try decode(bytes, options: options)
        return ImageInfo(
            format: format, width: image.width, height: image.height, pixelFormat: image.pixelFormat,
            metadata: image.metadata)
    }

    /// The header's plan first (so the source limit refuses a huge image before any decode), then a full
    /// decode under the pixel limit, resized by the thumbnailer.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        try source.withBytes { (bytes) throws(ImageProcessingError) in
            let info = try Thumbnailer.decoding { () throws(ImageDecodingError) in try self.info(bytes) }
            let plan = try thumbnailer.plan(for: info)
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                try decode(bytes, options: thumbnailer.fullDecodeOptions)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        throw .unsupportedFormat(format)
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        let image = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try decode(bytes, options: options)
        }
        return StillFrameDecoder(image)
    }

    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        throw .unsupportedFormat(format)
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? { nil }

    func rowSource(path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)? { nil }

    func rowFormat(for decoded: PixelFormat, options: any ImageEncodeOptions) -> PixelFormat? { nil }

    func rowWriter(_ header: RowStreamHeader, options: any ImageEncodeOptions, descriptor: Int32) throws
        -> any RowWriter
    {
        throw ImageEncodingError.unsupportedFormat(format)
    }

    /// `options` as this codec's options type, or an error naming the mismatch.
    func options<Options: ImageEncodeOptions>(
        _ options: any ImageEncodeOptions, as type: Options.Type
    ) throws(ImageEncodingError) -> Options {
        guard let typed = options as? Options else {
            throw .invalidOption("\(type) expected for \(format.rawValue), got \(Swift.type(of: options))")
        }
        return typed
    }
}
