/// Why an ``ImageProcessing`` step failed: the error of the stage that failed, kept as it is.
public enum ImageProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoded bytes could not be decoded.
    case decoding(ImageDecodingError)
    /// The thumbnail could not be made (its source could not be decoded, was too large, or the size is invalid).
    case thumbnail(ThumbnailError)
    /// A resize or crop failed.
    case processing(ProcessingError)
    /// A colour conversion failed (a damaged or unusable ICC profile).
    case color(ImageColorError)

    /// A one-line explanation for people: the underlying error's.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .thumbnail(let error): error.description
        case .processing(let error): error.description
        case .color(let error): error.description
        }
    }
}
