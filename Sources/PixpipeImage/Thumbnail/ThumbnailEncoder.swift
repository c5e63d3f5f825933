import Foundation

/// Encodes thumbnails in any format the codec table writes: JPEG at quality 85 with 4:2:0 chroma and
/// optimized Huffman tables by default, PNG, and the rest at their standard settings.
///
/// ```swift
/// let data = try ThumbnailEncoder(format: .jpeg, strips: true).encode(thumbnail)
/// ```
public struct ThumbnailEncoder: Sendable, Hashable {
    /// The format written.
    public var format: ImageFormat
    /// Quality 1...100 for lossy formats, `nil` for the format's own default (``JPEGEncodeOptions/defaultQuality``
    /// for JPEG; `pixpipe convert --help` lists them all); ignored by lossless formats.
    public var quality: Int?
    /// Drop the ICC profile and the EXIF block (kept by default).
    public var strips: Bool

    /// An encoder; every argument has the documented default.
    public init(format: ImageFormat = .jpeg, quality: Int? = nil, strips: Bool = false) {
        self.format = format
        self.quality = quality
        self.strips = strips
    }

    /// The encoding settings this encoder uses: the format's standard encoding at ``quality``, or at the
    /// format's own default quality.
    public var encoding: ImageEncoding {
        get throws(ImageEncodingError) {
            guard
                let encoding = ImageEncoding.standard(
                    for: format, StandardEncodeSettings(quality: quality, keepsMetadata: !strips))
            else { throw .unsupportedFormat(format) }
            return encoding
        }
    }

    /// `thumbnail` encoded; JPEG composites alpha over white.
    public func encode(_ thumbnail: Image) throws(ImageEncodingError) -> Data {
        try thumbnail.encoded(as: encoding)
    }
}
