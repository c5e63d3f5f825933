/// Why bytes could not be decoded into an ``Image``.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The leading bytes match no format of the codec table; `recognized` says what they are instead, when
    /// known (an empty file, an HTML page, a BMP image).
    case unsupportedFormat(recognized: RecognizedContent = .unknown)
    /// The data is damaged; `reason` is the codec library's message.
    case corrupt(format: ImageFormat, reason: String)
    /// The data ends before the image does.
    case truncated(format: ImageFormat, reason: String)
    /// A valid file using a feature the system library cannot decode (12-bit or lossless JPEG, ...).
    case unsupportedFeature(format: ImageFormat, feature: String)
    /// The header declares more pixels than the limit allows; refused before allocating.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// An animation declares more frames than ``DecodeOptions/frameLimit`` allows; refused from the header.
    case tooManyFrames(count: Int, limit: Int)
    /// An animation's frames hold more pixels together than ``DecodeOptions/animationPixelLimit`` allows.
    case animationTooLarge(width: Int, height: Int, frames: Int, limit: Int)
    /// The input holds more bytes than the byte limit allows.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// A JPEG XL file holds no JPEG reconstruction data, so ``JPEGXL/reconstructedJPEG(from:pixelLimit:)``
    /// has no JPEG to rebuild (the file was not made from a JPEG losslessly).
    case noJPEGReconstructionData

    /// The reason of ``unreadable(path:reason:)`` when the path names a folder where a file was expected.
    public static let isAFolder = "is a folder, not a file"

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .unsupportedFormat(.unknown): "unsupported format: not a \(ImageFormat.decodableNames) file"
        case .unsupportedFormat(let recognized): recognized.description
        case .corrupt(let format, let reason): "corrupt \(format.rawValue) data: \(reason)"
        case .truncated(let format, let reason): "truncated \(format.rawValue) data: \(reason)"
        case .unsupportedFeature(let format, let feature): "unsupported \(format.rawValue) feature: \(feature)"
        case .tooLarge(let width, let height, let limit):
            "image too large: \(width)x\(height) is over the limit of \(limit) pixels"
        case .tooManyFrames(let count, let limit):
            "animation too long: \(count) frames is over the limit of \(limit)"
        case .animationTooLarge(let width, let height, let frames, let limit):
            "animation too large: \(frames) frames of \(width)x\(height) is over the limit of \(limit) pixels"
        case .inputTooLarge(let bytes, let limit): "input too large: \(bytes) bytes is over the limit of \(limit)"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .noJPEGReconstructionData: "the JPEG XL file holds no JPEG reconstruction data"
        }
    }
}

extension ImageDecodingError {
    /// A stable short name of the case, for manifests, JSON output and summaries: `not-an-image`,
    /// `corrupt-image`, `truncated-image`, `unsupported-image`, `too-large-image`, `input-too-large`,
    /// `too-many-frames`, `too-large-animation`, `unreadable-file` or `jxl-no-jpeg-reconstruction`. Names never change once published, so recorded names keep their meaning.
    public var shortName: String {
        switch self {
        case .unsupportedFormat: "not-an-image"
        case .corrupt: "corrupt-image"
        case .truncated: "truncated-image"
        case .unsupportedFeature: "unsupported-image"
        case .tooLarge: "too-large-image"
        case .inputTooLarge: "input-too-large"
        case .tooManyFrames: "too-many-frames"
        case .animationTooLarge: "too-large-animation"
        case .unreadable: "unreadable-file"
        case .noJPEGReconstructionData: "jxl-no-jpeg-reconstruction"
        }
    }
}
