import Foundation

/// What an input is when no codec decodes it: nothing, a document that is not an image, or an image format
/// Pixpipe does not read. Carried by ``ImageDecodingError/unsupportedFormat(recognized:)`` so that every
/// command says the same thing about the same bytes.
///
/// Recognised from the leading bytes only, like ``ImageFormat/sniff(_:)``, and only after every codec's
/// magic bytes failed to match.
///
/// ```swift
/// RecognizedContent(Array("<!doctype html>".utf8))   // .htmlPage
/// ```
public enum RecognizedContent: Sendable, Hashable, CustomStringConvertible {
    /// Nothing recognised.
    case unknown
    /// No bytes at all.
    case empty
    /// An HTML page (an error or login page served in place of an image).
    case htmlPage
    /// A PDF document.
    case pdfDocument
    /// Text that is not HTML.
    case text
    /// An image format Pixpipe knows by name but does not decode; `writable` when it encodes it.
    case imageFormat(name: String, writable: Bool)

    /// How many leading bytes ``init(_:)`` looks at: enough to tell text from binary data.
    public static let prefixLength = 512

    /// What `bytes` (the input's first ``prefixLength`` bytes or all of it when shorter) are.
    public init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let prefix = Array(bytes.prefix(Self.prefixLength))
        if prefix.isEmpty {
            self = .empty
        } else if let format = ForeignImageFormat.all.first(where: { $0.matches(prefix) }) {
            self = .imageFormat(name: format.name, writable: format.writableFormat?.canEncode ?? false)
        } else if prefix.starts(with: Array("%PDF-".utf8)) {
            self = .pdfDocument
        } else if Self.isHTML(prefix) {
            self = .htmlPage
        } else if Self.isText(prefix) {
            self = .text
        } else {
            self = .unknown
        }
    }

    /// What the error message says the input is; empty for ``unknown``.
    public var description: String {
        switch self {
        case .unknown: ""
        case .empty: "empty file, not an image"
        case .htmlPage: "HTML page, not an image"
        case .pdfDocument: "PDF document, not an image"
        case .text: "text file, not an image"
        case .imageFormat(let name, let writable):
            writable ? "\(name) image: Pixpipe writes but does not read this format" : "\(name) image: not supported"
        }
    }

    /// The bytes after a UTF-8 byte order mark and leading white space, lowercased ASCII.
    static func markup(_ prefix: [UInt8]) -> [UInt8] {
        var rest = prefix[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }.map {
            (0x41...0x5A).contains($0) ? $0 | 0x20 : $0
        }
    }

    /// Whether the markup starts as an HTML page does.
    private static func isHTML(_ prefix: [UInt8]) -> Bool {
        let start = markup(prefix)
        return ["<!doctype html", "<html", "<head", "<body"].contains { start.starts(with: Array($0.utf8)) }
    }

    /// Whether the bytes read as text: no NUL and no control byte but white space and escape. UTF-8 sequences
    /// are accepted as they are; a prefix may cut one in two.
    private static func isText(_ prefix: [UInt8]) -> Bool {
        prefix.allSatisfy { $0 >= 0x20 || (0x07...0x0D).contains($0) || $0 == 0x1B } && !prefix.contains(0x7F)
    }
}

extension RecognizedContent {
    /// What the file at `path` is, from its first ``prefixLength`` bytes; ``unknown`` when it cannot be read.
    public init(fileAt path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            self = .unknown
            return
        }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: Self.prefixLength) else {
            self = .empty
            return
        }
        self.init(prefix)
    }
}

extension RecognizedContent {
    /// Whether the file at `path` looks like an image, by its leading bytes (any codec's magic, or a
    /// ``ForeignImageFormat``'s) or by an image file extension: what a folder walk reports on. Notes,
    /// `.DS_Store` files and other non-image files are not.
    package static func looksLikeImage(path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let fileExtension = String(name[name.index(after: dot)...])
            if ImageFormat(name: fileExtension) != nil || ForeignImageFormat.named(fileExtension: fileExtension) != nil
            {
                return true
            }
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: prefixLength)) ?? Data()
        if ImageFormat.sniff(prefix) != nil { return true }
        if case .imageFormat = RecognizedContent(prefix) { return true }
        return false
    }
}
