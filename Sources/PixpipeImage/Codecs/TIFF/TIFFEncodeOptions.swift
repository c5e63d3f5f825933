import Foundation

/// TIFF encoder settings.
public struct TIFFEncodeOptions: ImageEncodeOptions {
    /// TIFF.
    public var format: ImageFormat { .tiff }

    /// The lossless compressions the encoder writes.
    public enum Compression: String, Sendable, Hashable, CaseIterable {
        /// Deflate (zlib, Compression 8): the smallest files; read by every current TIFF reader.
        case deflate
        /// LZW (Compression 5): for readers older than Deflate in TIFF.
        case lzw
        /// No compression (Compression 1).
        case none
    }

    /// The compression. Default Deflate.
    public var compression: Compression
    /// Write horizontal differencing (Predictor 2) before compressing: smaller photographs.
    public var usesPredictor: Bool
    /// Write the image's ICC profile when it has one.
    public var includesICCProfile: Bool
    /// Write the image's XMP packet when it has one.
    public var includesXMP: Bool
    /// Write the image's orientation as the Orientation tag (when not `.up`).
    public var writesOrientation: Bool

    /// Options; every argument has the documented default.
    public init(
        compression: Compression = .deflate, usesPredictor: Bool = true, includesICCProfile: Bool = true,
        includesXMP: Bool = true, writesOrientation: Bool = true
    ) {
        self.compression = compression
        self.usesPredictor = usesPredictor
        self.includesICCProfile = includesICCProfile
        self.includesXMP = includesXMP
        self.writesOrientation = writesOrientation
    }
}

extension ImageEncoding {
    /// TIFF with default options (Deflate with the predictor).
    public static var tiff: ImageEncoding { .tiff(TIFFEncodeOptions()) }
    /// TIFF with `options`.
    public static func tiff(_ options: TIFFEncodeOptions) -> ImageEncoding { ImageEncoding(options) }
}

extension ImageEncoding {
    /// Encodes `images` as the pages of one file, each at its own size (TIFF only; other formats throw
    /// ``ImageEncodingError/unsupportedFormat(_:)``), where ``encodeAnimation(_:loopCount:)`` needs one size.
    public func encodePages(_ images: [Image]) throws(ImageEncodingError) -> Data {
        guard let options = options as? TIFFEncodeOptions else { throw .unsupportedFormat(format) }
        return try TIFFEncoder.encode(images, options: options)
    }

    /// Whether ``encodePages(_:)`` writes this encoding's format (pages of their own sizes, as TIFF has).
    public var canEncodePages: Bool { options is TIFFEncodeOptions }
}
