/// A container format this package reads or writes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// Portable Network Graphics.
    case png
    /// JPEG (JFIF or EXIF).
    case jpeg

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        }
    }

    /// The format named by the leading bytes (magic numbers), or `nil` when they match none.
    ///
    /// The format is never taken from a file name or a `Content-Type`.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}
