/// Why a thumbnail could not be made.
public enum ThumbnailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source could not be read or decoded, or a decode would go over the pixel limit.
    case decoding(ImageDecodingError)
    /// The source has more pixels than ``ThumbnailOptions/sourcePixelLimit`` allows; refused from the header.
    case sourceTooLarge(width: Int, height: Int, limit: Int)
    /// The requested size has a zero or negative side, or is too large to allocate.
    case invalidSize(ThumbnailOptions.Size)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .sourceTooLarge(let width, let height, let limit):
            "image too large to thumbnail: \(width)x\(height) is over the source limit of \(limit) pixels"
        case .invalidSize(let size): "invalid thumbnail size \(size)"
        }
    }

    /// A stable short name of the case: a decoding failure's own name (``ImageDecodingError/shortName``),
    /// `too-large-source` or `invalid-thumbnail-size`.
    public var shortName: String {
        switch self {
        case .decoding(let error): error.shortName
        case .sourceTooLarge: "too-large-source"
        case .invalidSize: "invalid-thumbnail-size"
        }
    }
}
