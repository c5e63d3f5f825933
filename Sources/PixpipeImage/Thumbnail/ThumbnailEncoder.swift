import Foundation

/// Encodes thumbnails: JPEG at quality 85 with 4:2:0 chroma and optimized Huffman tables, or PNG.
///
/// ```swift
/// let data = try ThumbnailEncoder(format: .jpeg, strips: true).encode(thumbnail)
/// ```
public struct ThumbnailEncoder: Sendable, Hashable {
    /// The format written.
    public var format: ImageFormat
    /// JPEG quality, 1...100; ignored for PNG.
    public var quality: Int
    /// Drop the ICC profile and the EXIF block (kept by default).
    public var strips: Bool

    /// An encoder; every argument has the documented default.
    public init(format: ImageFormat = .jpeg, quality: Int = 85, strips: Bool = false) {
        self.format = format
        self.quality = quality
        self.strips = strips
    }

    /// The encoding settings this encoder uses.
    public var encoding: ImageEncoding {
        switch format {
        case .jpeg:
            .jpeg(
                JPEGEncodeOptions(
                    quality: quality, optimizesHuffmanTables: true, chromaSubsampling: .s420,
                    includesICCProfile: !strips, includesEXIF: !strips))
        case .png: .png(PNGEncodeOptions(includesICCProfile: !strips, includesEXIF: !strips))
        }
    }

    /// `thumbnail` encoded; JPEG composites alpha over white.
    public func encode(_ thumbnail: Image) throws(ImageEncodingError) -> Data {
        try thumbnail.encoded(as: encoding)
    }
}
