// The error types this one replaces, kept so that code naming them still compiles. Constructors are kept; a
// pattern must name the new case (`.invalidThumbnailSize`, `.colorTransformFailed`...).

/// The former error of crops and resizes: its cases are now ``ImageProcessingError``'s.
@available(*, deprecated, renamed: "ImageProcessingError")
public typealias GeometryError = ImageProcessingError

/// The former error of thumbnails: its cases are now ``ImageProcessingError``'s.
@available(*, deprecated, renamed: "ImageProcessingError")
public typealias ThumbnailError = ImageProcessingError

/// The former error of colour conversions: its cases are now ``ImageProcessingError``'s.
@available(*, deprecated, renamed: "ImageProcessingError")
public typealias ImageColorError = ImageProcessingError

/// The former name of crops' and resizes' error, before ``GeometryError``.
@available(*, deprecated, renamed: "ImageProcessingError")
public typealias ProcessingError = ImageProcessingError

extension ImageProcessingError {
    /// The former `thumbnail` case, which wrapped a thumbnail's error: now the error itself.
    @available(*, deprecated, message: "the thumbnail's error is an ImageProcessingError itself")
    public static func thumbnail(_ error: ImageProcessingError) -> ImageProcessingError { error }

    /// The former `geometry` case, which wrapped a crop's or resize's error: now the error itself.
    @available(*, deprecated, message: "the crop's or resize's error is an ImageProcessingError itself")
    public static func geometry(_ error: ImageProcessingError) -> ImageProcessingError { error }

    /// The former `processing` case, which wrapped a crop's or resize's error: now the error itself.
    @available(*, deprecated, message: "the crop's or resize's error is an ImageProcessingError itself")
    public static func processing(_ error: ImageProcessingError) -> ImageProcessingError { error }

    /// The former `color` case, which wrapped a colour conversion's error: now the error itself.
    @available(*, deprecated, message: "the colour conversion's error is an ImageProcessingError itself")
    public static func color(_ error: ImageProcessingError) -> ImageProcessingError { error }

    /// The former `ThumbnailError.invalidSize`: now ``invalidThumbnailSize(_:)``.
    @available(*, deprecated, renamed: "invalidThumbnailSize")
    public static func invalidSize(_ size: ThumbnailOptions.Size) -> ImageProcessingError {
        .invalidThumbnailSize(size)
    }

    /// The former `ImageColorError.invalidProfile`: now ``invalidColorProfile(reason:)``.
    @available(*, deprecated, renamed: "invalidColorProfile")
    public static func invalidProfile(reason: String) -> ImageProcessingError { .invalidColorProfile(reason: reason) }

    /// The former `ImageColorError.unsupportedProfile`: now ``unsupportedColorProfile(colorSpace:reason:)``.
    @available(*, deprecated, renamed: "unsupportedColorProfile")
    public static func unsupportedProfile(colorSpace: String, reason: String) -> ImageProcessingError {
        .unsupportedColorProfile(colorSpace: colorSpace, reason: reason)
    }

    /// The former `ImageColorError.transformFailed`: now ``colorTransformFailed(reason:)``.
    @available(*, deprecated, renamed: "colorTransformFailed")
    public static func transformFailed(reason: String) -> ImageProcessingError { .colorTransformFailed(reason: reason) }
}
