import Foundation

/// A file name decided before the download, with the parts that depend on the bytes left open.
///
/// `{index}`, `{name}` and `{host}` are filled in from the item when it is read from the list; `{sha256}` and
/// `{ext}` stay open until the stored bytes are known. The template is scanned once, so text coming from a
/// URL can never be taken for a placeholder.
struct FileNamePattern: Hashable, Sendable {
    /// A piece of the name.
    enum Segment: Hashable, Sendable {
        /// Sanitized text.
        case literal(String)
        /// The stored bytes' SHA-256, lowercase hex.
        case sha256
        /// The stored format's extension, without the dot.
        case ext
    }

    /// The pieces, in order.
    private(set) var segments: [Segment]

    /// The default template: the stem, then the extension.
    static let defaultTemplate = "{name}"

    /// The pattern of `template` for item number `index` (0-based) with the stem `name` and host `host`.
    init(template: String, index: Int, name: String, host: String) {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let afterOpen = rest[rest.index(after: open)...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            let placeholder = afterOpen[..<close]
            switch placeholder {
            case "index": literal += String(index + 1)
            case "name": literal += name
            case "host": literal += host
            case "sha256", "ext":
                segments.append(.literal(literal))
                literal = ""
                segments.append(placeholder == "ext" ? .ext : .sha256)
            default: literal += "{\(placeholder)}"
            }
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        literal += rest
        segments.append(.literal(literal))
        if !segments.contains(.ext) { segments += [.literal("."), .ext] }
        self.segments = Self.merged(
            segments.map { segment in
                if case .literal(let text) = segment { return .literal(Self.sanitizedLiteral(text)) }
                return segment
            })
    }

    /// The default template's pattern for `stem`, a non-empty name that sanitizing leaves as it is and that
    /// does not end with a dot (``FileNameSanitizer/plainStem(of:)``): `STEM.{ext}`, as
    /// `init(template: defaultTemplate, ...)` makes it, without scanning the template.
    init(plainStem stem: String) {
        segments = [.literal(stem + "."), .ext]
    }

    /// Whether the name depends on the content's hash (then equal names mean equal bytes: no suffix needed).
    var isContentAddressed: Bool { segments.contains(.sha256) }

    /// Whether the name would be hidden (a leading dot) or nothing but the extension.
    var needsFallback: Bool {
        if case .literal(let first) = segments.first, first.hasPrefix(".") { return true }
        return isEmpty
    }

    /// Whether nothing but the extension would be written (every part came out empty).
    private var isEmpty: Bool {
        segments.allSatisfy { segment in
            switch segment {
            case .literal(let text): text.isEmpty || text == "."
            case .ext: true
            case .sha256: false
            }
        }
    }

    /// A stable, case-insensitive key for collision checks (case-insensitive so folders merge on any disk).
    var collisionKey: String {
        segments.map { segment -> String in
            switch segment {
            case .literal(let text): text.lowercased()
            case .sha256: "\u{1}sha256"
            case .ext: "\u{1}ext"
            }
        }.joined()
    }

    /// The pattern with `-N` added to the stem: before the `.{ext}` that ends the name, or at the end.
    func suffixed(_ number: Int) -> FileNamePattern {
        var copy = self
        let suffix = "-\(number)"
        if segments.count >= 2, case .ext = segments[segments.count - 1],
            case .literal(let text) = segments[segments.count - 2], text.hasSuffix(".")
        {
            copy.segments[segments.count - 2] = .literal(String(text.dropLast()) + suffix + ".")
        } else {
            copy.segments.append(.literal(suffix))
        }
        return copy
    }

    /// The pattern with `{ext}` filled in as `fileExtension`: its claim key is then the name's own, for that
    /// extension alone (as ``init(literalName:)``'s for the rendered name).
    func withExtension(_ fileExtension: String) -> FileNamePattern {
        var copy = self
        copy.segments = segments.map { segment in
            if case .ext = segment { return .literal(fileExtension) }
            return segment
        }
        return copy
    }

    /// The final file name once the stored bytes are known.
    func render(sha256: String, fileExtension: String) -> String {
        let name = segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .sha256: sha256
            case .ext: fileExtension
            }
        }.joined()
        return FileNameSanitizer.limitingLength(of: name)
    }

    /// Template text made safe; a dot is kept where it separates (`{index}.{ext}`), never leading the name.
    private static func sanitizedLiteral(_ text: String) -> String {
        if text == "." { return text }
        let trailingDot = text.hasSuffix(".")
        let clean = FileNameSanitizer.sanitize(text)
        return trailingDot && !clean.isEmpty ? clean + "." : clean
    }

    private static func merged(_ segments: [Segment]) -> [Segment] {
        var result: [Segment] = []
        for segment in segments {
            if case .literal(let text) = segment {
                if text.isEmpty { continue }
                if case .literal(let previous) = result.last {
                    let joined =
                        previous.hasSuffix(".") && text.hasPrefix(".") ? previous + text.dropFirst() : previous + text
                    result[result.count - 1] = .literal(joined)
                    continue
                }
            }
            result.append(segment)
        }
        return result
    }
}

extension FileNamePattern {
    /// The pattern a stored file's recorded `name` was rendered from, as far as its claims go: `STEM.{ext}`
    /// when the name ends in an extension (so `photo.png` holds `photo.{ext}`, as a `photo.png` URL claims
    /// it), else the name itself.
    init(recordedName name: String) {
        let stem = FileNameSanitizer.stem(of: name)
        segments = stem == name ? [.literal(name)] : [.literal(stem + "."), .ext]
    }

    /// A whole file name as one literal: its claim key is the name's own (lowercased), extension included.
    init(literalName name: String) {
        segments = [.literal(name)]
    }

    /// The pattern of the original kept beside this one's file (`STEM.original.{ext}`, as the downloader
    /// names it from the stored name), or `nil` for a template that does not end in `.{ext}`.
    var originalPattern: FileNamePattern? {
        guard segments.count >= 2, case .ext = segments[segments.count - 1],
            case .literal(let text) = segments[segments.count - 2], text.hasSuffix(".")
        else { return nil }
        var copy = self
        copy.segments[segments.count - 2] = .literal(text + "original.")
        return copy
    }
}
