/// A container format this package reads or writes, named by a short stable identifier (`"png"`, `"jpeg"`).
///
/// An open set, like Nuke's `AssetType`: each format is a static constant declared in its codec's folder
/// (`ImageFormat.png` in `Codecs/PNG/`), and what a format can do comes from the one codec table,
/// ``ImageFormat/all``. Formats are never taken from a file name or a `Content-Type`: ``sniff(_:)`` reads
/// the leading bytes.
///
/// ```swift
/// ImageFormat.sniff(data)                 // .png, .jpeg, ... or nil
/// ImageFormat(name: "jpg")                // .jpeg
/// ImageFormat.jpeg.fileExtension          // "jpg"
/// ```
public struct ImageFormat: RawRepresentable, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The stable identifier, as the manifest and `--json` output write it.
    public let rawValue: String

    /// The format with identifier `rawValue`; formats outside ``all`` can be named but not decoded.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Every format the codec table knows, in the table's order.
    public static var allCases: [ImageFormat] { ImageCodecs.all.map(\.format) }

    /// Every format the codec table knows (the same as ``allCases``).
    public static var all: [ImageFormat] { allCases }

    /// The identifier.
    public var description: String { rawValue }

    /// The format that `name` names: its identifier or any of its file extensions, in any case (`"JPG"`).
    public init?(name: String) {
        let lowered = name.lowercased()
        guard
            let codec = ImageCodecs.all.first(where: {
                $0.format.rawValue == lowered || $0.fileExtensions.contains(lowered)
            })
        else { return nil }
        self = codec.format
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String { ImageCodecs.codec(for: self)?.fileExtensions.first ?? rawValue }

    /// The media types (`image/png`) that servers use for the format.
    public var mediaTypes: [String] { ImageCodecs.codec(for: self)?.mediaTypes ?? [] }

    /// Whether ``Image/init(data:options:)`` decodes the format.
    public var canDecode: Bool { ImageCodecs.codec(for: self)?.canDecode ?? false }

    /// Whether ``Image/encoded(as:)`` writes the format.
    public var canEncode: Bool { ImageCodecs.codec(for: self)?.canEncode ?? false }

    /// The format named by the leading bytes (magic numbers), or `nil` when they match none.
    ///
    /// The format is never taken from a file name or a `Content-Type`.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        ImageCodecs.sniff(bytes)?.format
    }
}
