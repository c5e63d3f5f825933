import Foundation

/// A codec a library user adds at run time with ``ImageCodecs/register(_:)``: how to recognise a format,
/// read its header and decode it, and optionally encode it.
///
/// Once registered, the format is everywhere an image goes: ``ImageFormat/sniff(_:)``,
/// ``ImageFormat/init(name:)``, ``Image/init(data:options:)``, ``Image/info(data:options:)``, the
/// thumbnailer, ``ImageEncoding/standard(for:_:)`` and ``Image/encoded(as:)``, and the downloader's
/// verification. Only ``format``, ``fileExtensions``, ``matches(_:)``, ``info(_:)`` and
/// ``decode(_:options:)`` are required.
///
/// ```swift
/// struct QOIDecoder: ImageDecoding { ... }
/// ImageCodecs.register(QOIDecoder())
/// let image = try Image(data: qoiData)
/// ```
public protocol ImageDecoding: Sendable {
    /// The format this codec reads (a new identifier: built-in formats cannot be replaced).
    var format: ImageFormat { get }
    /// The file extensions that name the format, the usual one first, in lower case.
    var fileExtensions: [String] { get }
    /// The media types servers use for it; none by default.
    var mediaTypes: [String] { get }
    /// Whether ``encode(_:settings:)`` is implemented; `false` by default.
    var canEncode: Bool { get }

    /// Whether `prefix` (the first 64 bytes, or fewer when the input is shorter) starts a file of this
    /// format. Magic bytes only: it is asked of every input no built-in codec recognises.
    func matches(_ prefix: [UInt8]) -> Bool

    /// What the header says, without decoding pixels.
    func info(_ data: Data) throws(ImageDecodingError) -> ImageInfo

    /// Decodes the image. Apply `options.pixelLimit` from the header, before allocating (throw
    /// ``ImageDecodingError/tooLarge(width:height:limit:)``); the byte limit is applied before this is called.
    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> Image

    /// Encodes `image` with the settings every encoder understands.
    func encode(_ image: Image, settings: StandardEncodeSettings) throws(ImageEncodingError) -> Data
}

extension ImageDecoding {
    /// No media types.
    public var mediaTypes: [String] { [] }

    /// No encoder.
    public var canEncode: Bool { false }

    /// Refuses: the codec has no encoder.
    public func encode(_ image: Image, settings: StandardEncodeSettings) throws(ImageEncodingError) -> Data {
        throw .unsupportedFormat(format)
    }
}

/// A registered ``ImageDecoding`` as a codec of the table: the defaults of ``ImageCodec`` supply the
/// verification, thumbnails (header first, then a decode) and the one-frame animation reader.
struct RegisteredCodec: ImageCodec {
    /// The user's codec.
    let base: any ImageDecoding

    var format: ImageFormat { base.format }
    var fileExtensions: [String] { base.fileExtensions.map { $0.lowercased() } }
    var mediaTypes: [String] { base.mediaTypes }
    var canEncode: Bool { base.canEncode }

    func matches(_ prefix: [UInt8]) -> Bool { base.matches(prefix) }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        try base.info(Data(bytes))
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        try base.decode(Data(bytes), options: options)
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try base.encode(image, settings: self.options(options, as: RegisteredEncodeOptions.self).settings)
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        canEncode ? ImageEncoding(RegisteredEncodeOptions(format: format, settings: settings)) : nil
    }
}

/// The options of a registered codec's encoder: the common settings, passed through.
struct RegisteredEncodeOptions: ImageEncodeOptions {
    let format: ImageFormat
    let settings: StandardEncodeSettings
}
