/// Why an ``ImageProcessing`` step failed: the error of the stage that failed, kept as it is.
///
/// ```swift
/// do { _ = try ImageProcessors.Resize(width: 0, height: 8).process(image) } catch {
///     if case .geometry(.invalidSize) = error { print(error.shortName) }   // "invalid-size"
/// }
/// ```
public enum ImageProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoded bytes could not be decoded.
    case decoding(ImageDecodingError)
    /// The thumbnail could not be made (its source could not be decoded, was too large, or the size is invalid).
    case thumbnail(ThumbnailError)
    /// A resize or crop was asked for a size or rectangle that does not fit.
    case geometry(GeometryError)
    /// A colour conversion failed (a damaged or unusable ICC profile).
    case color(ImageColorError)

    /// The former name of ``geometry(_:)``, for code that builds the error; a pattern must name `.geometry`.
    @available(*, deprecated, renamed: "geometry")
    public static func processing(_ error: GeometryError) -> ImageProcessingError { .geometry(error) }

    /// A one-line explanation for people: the underlying error's.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .thumbnail(let error): error.description
        case .geometry(let error): error.description
        case .color(let error): error.description
        }
    }

    /// The short name of the underlying error (see ``ImageDecodingError/shortName``,
    /// ``ThumbnailError/shortName``, ``GeometryError/shortName``, ``ImageColorError/shortName``).
    public var shortName: String {
        switch self {
        case .decoding(let error): error.shortName
        case .thumbnail(let error): error.shortName
        case .geometry(let error): error.shortName
        case .color(let error): error.shortName
        }
    }
}
