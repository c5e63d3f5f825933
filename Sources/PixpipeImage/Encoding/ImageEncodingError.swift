/// Why an ``Image`` could not be encoded.
public enum ImageEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pixel format cannot be stored in the chosen format (for example 16-bit or alpha in JPEG).
    case unsupportedPixelFormat(PixelFormat, format: ImageFormat)
    /// The package has no encoder for the format.
    case unsupportedFormat(ImageFormat)
    /// An option is out of range (for example quality 0).
    case invalidOption(String)
    /// The codec library failed; `reason` is its message.
    case libraryFailure(format: ImageFormat, reason: String)
    /// ``Image/write(to:quality:)`` could not tell the format from the file's extension.
    case unknownFileExtension(path: String)
    /// The encoded bytes could not be written to the file (``Image/write(to:as:)``); nothing was left there.
    case unwritable(path: String, reason: String)
    /// ``JPEGXL/recompressing(jpeg:effort:pixelLimit:)`` was given bytes that are not a JPEG file (no
    /// `FF D8 FF` start).
    case notJPEG
    /// The encoded input of a re-encode (the JPEG of ``JPEGXL/recompressing(jpeg:effort:pixelLimit:)``) was
    /// refused from its header: unreadable, or over the pixel limit.
    case source(ImageDecodingError)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .unsupportedPixelFormat(let pixelFormat, let format):
            "\(format.rawValue) cannot store \(pixelFormat) pixels"
        case .unsupportedFormat(let format): "cannot write \(format.rawValue) images"
        case .invalidOption(let message): "invalid encoding option: \(message)"
        case .libraryFailure(let format, let reason): "\(format.rawValue) encoder failed: \(reason)"
        case .unknownFileExtension(let path):
            "cannot tell the format from the name \(path): use an extension of \(ImageFormat.writableNames)"
        case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
        case .notJPEG: "not a JPEG file: only a JPEG can be recompressed losslessly"
        case .source(let error): error.description
        }
    }

    /// A stable short name of the case: `unsupported-output-format`, `unsupported-pixel-format`,
    /// `invalid-encoding-option`, `encoder-failed`, `unknown-output-extension`, `unwritable-file`,
    /// `jxl-not-jpeg`, or for ``source(_:)`` the decoding error's own name.
    public var shortName: String {
        switch self {
        case .unsupportedFormat: "unsupported-output-format"
        case .unsupportedPixelFormat: "unsupported-pixel-format"
        case .invalidOption: "invalid-encoding-option"
        case .libraryFailure: "encoder-failed"
        case .unknownFileExtension: "unknown-output-extension"
        case .unwritable: "unwritable-file"
        case .notJPEG: "jxl-not-jpeg"
        case .source(let error): error.shortName
        }
    }
}
