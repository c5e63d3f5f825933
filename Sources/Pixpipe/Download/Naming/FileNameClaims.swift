import Foundation

/// Gives every item of a batch its file name pattern, in list order, with a stable suffix on collisions.
///
/// Names are decided when an item is read from the list, before any download, in the order of the list:
/// the first item wanting `photo.{ext}` gets it, the next gets `photo-2.{ext}`, then `photo-3.{ext}`. So the
/// names never depend on which download finishes first, a rerun or a resumed run computes the same names,
/// and every shard (which sees the whole list and claims names for items it does not download) agrees, so
/// shard folders merge without clashes. The comparison ignores case. The extension is part of the key when
/// it can be told before the download (``ExtensionRule``): the one output format every file is converted
/// to, or, for bytes stored as they came, the URL's own image extension; so `anim.gif` and `anim.webp` URLs
/// keep their names, while `a.png` and `a.png?v=2` become `a.png` and `a-2.png`. An item whose extension
/// cannot be told claims its stem for every extension (`a` and `a.jpg` URLs become `a.png` and `a-2.jpg`),
/// and a stem so claimed is taken for every extension. A file whose real format turns out to differ from
/// the URL's extension is still never written over another: publishing takes the next free suffix.
///
/// Names the folder's manifest already gives out (``RecordedNames``: earlier runs, other lists) count as
/// claimed for every other URL; a URL that holds a recorded name keeps it. When originals are kept, an
/// item's name is only free if its original's (`photo.original.{ext}`) is too, and claiming one claims both.
///
/// Memory: only 8-byte fingerprints of the claimed keys are kept, so a long list costs 8 bytes per item,
/// plus one counter per name that collided.
struct FileNameClaims: Sendable {
    /// How the extension of an item's stored file is told before its download.
    enum ExtensionRule: Sendable {
        /// It cannot be: every item claims its stem for every extension.
        case unknown
        /// Every file gets this extension (one output format for all).
        case fixed(String)
        /// The URL's (or the given name's) extension, when it names an image format (bytes stored as they came).
        case fromURL
    }

    /// Names claimed for one extension (lowercased name, extension included).
    private var claimed: Set<UInt64> = []
    /// Stems claimed for every extension (``FileNamePattern/collisionFingerprint``, extension left open).
    private var wildcards: Set<UInt64> = []
    /// Stems claimed in any way: those an extension-less claim must avoid.
    private var stems: Set<UInt64> = []
    private let extensionRule: ExtensionRule
    /// For each base name that collided, the suffix its next collision starts searching from. Without it
    /// the k-th `photo.jpg` would hash `photo-2` ... `photo-k` again: quadratic, over 20 s for a
    /// 1,000-line list of `.../image.jpg?id=N` URLs in a debug build. Starting here gives the same name,
    /// because every suffix below it was claimed when it was passed and claims are never released (a
    /// suffix passed because another URL's record holds it is never free to a later item either, except to
    /// that URL, which takes its recorded name first).
    private var nextSuffix: [UInt64: Int] = [:]
    private let template: String
    private let recorded: RecordedNames
    private let keepsOriginal: Bool

    /// Claims using `template` (`nil`: the stem and the extension), avoiding the names `recorded` gives to
    /// other URLs, and reserving each item's kept original too when `keepsOriginal`.
    init(
        template: String?, recorded: RecordedNames = RecordedNames(), keepsOriginal: Bool = false,
        extensionRule: ExtensionRule = .unknown
    ) {
        self.template = template ?? FileNamePattern.defaultTemplate
        self.recorded = recorded
        self.keepsOriginal = keepsOriginal
        self.extensionRule = extensionRule
    }

    /// The extension `item`'s stored file will have, when the rule can tell it before the download.
    private func expectedExtension(of item: DownloadItem) -> String? {
        switch extensionRule {
        case .unknown: return nil
        case .fixed(let fileExtension): return fileExtension
        case .fromURL:
            let source: String
            if let name = item.name {
                source = name
            } else {
                var url = item.url.absoluteString
                let plain =
                    item.url.baseURL == nil ? url.withUTF8 { FileNameSanitizer.plainLastSegment(ofURL: $0) } : nil
                source =
                    plain.map { String(decoding: $0, as: UTF8.self) }
                    ?? FileNameSanitizer.lastPathComponent(of: item.url)
            }
            let stem = FileNameSanitizer.stem(of: source)
            guard stem.count < source.count else { return nil }
            let suffix = source[source.index(source.startIndex, offsetBy: stem.count + 1)...]
            return ImageFormat(name: String(suffix))?.fileExtension
        }
    }

    /// The pattern for item `index` (0-based), claimed so no later item gets the same one.
    mutating func claim(for item: DownloadItem, index: Int) -> FileNamePattern {
        claim(for: item, index: index, fingerprint: URLFingerprint(item.url), recordedName: nil).pattern
    }

    /// The pattern for item `index` (0-based), whose URL has `fingerprint` and whose latest record in the
    /// folder names `recordedName`, claimed so no later item gets the same one; `ownName` is the recorded
    /// name when the item keeps it (its file is the item's own, to replace when downloaded again).
    mutating func claim(
        for item: DownloadItem, index: Int, fingerprint: URLFingerprint, recordedName: [UInt8]?
    ) -> (pattern: FileNamePattern, ownName: String?) {
        let pattern =
            Self.plainPattern(for: item, template: template)
            ?? Self.pattern(for: item, index: index, template: template)
        // Names carrying the content hash are equal only for equal bytes: writing twice is harmless.
        guard !pattern.isContentAddressed else { return (pattern, nil) }
        if let recordedName {
            let name = String(decoding: recordedName, as: UTF8.self)
            let own = FileNamePattern(recordedName: name)
            let ownExtension = FileNameSanitizer.stem(of: name) == name ? nil : String(name.split(separator: ".").last!)
            if own.originalPattern != nil, isFree(own, extension: ownExtension, for: fingerprint) {
                take(own, extension: ownExtension)
                return (own, name)
            }
        }
        let expected = expectedExtension(of: item)
        if isFree(pattern, extension: expected, for: fingerprint) {
            take(pattern, extension: expected)
            return (pattern, nil)
        }
        // Suffixes count on per name claimed (the extension in it when known), never per stem alone.
        let base = expected.map { Self.fingerprint(pattern.withExtension($0)) } ?? Self.fingerprint(pattern)
        var number = nextSuffix[base] ?? 2
        var candidate = pattern.suffixed(number)
        while !isFree(candidate, extension: expected, for: fingerprint) {
            number += 1
            candidate = pattern.suffixed(number)
        }
        take(candidate, extension: expected)
        nextSuffix[base] = number + 1
        return (candidate, nil)
    }

    /// Whether `pattern` with `fileExtension` (every extension when `nil`), and its original's when kept, is
    /// claimed by no earlier item and recorded for no other URL than the one with `fingerprint`.
    private func isFree(_ pattern: FileNamePattern, extension fileExtension: String?, for fingerprint: URLFingerprint)
        -> Bool
    {
        let stem = Self.fingerprint(pattern)
        if let fileExtension {
            let key = Self.fingerprint(pattern.withExtension(fileExtension))
            guard !claimed.contains(key), !wildcards.contains(stem),
                recorded.isEmpty || recorded.allows(key, to: fingerprint)
            else { return false }
        } else {
            guard !stems.contains(stem), recorded.isEmpty || recorded.allowsStem(stem, to: fingerprint) else {
                return false
            }
        }
        // The original's extension is the source's, which the bytes tell: claimed for every extension.
        guard keepsOriginal, let original = pattern.originalPattern.map(Self.fingerprint) else { return true }
        return !stems.contains(original) && recorded.allowsStem(original, to: fingerprint)
    }

    /// Claims `pattern` with `fileExtension` (every extension when `nil`), and its original's when kept.
    private mutating func take(_ pattern: FileNamePattern, extension fileExtension: String?) {
        let stem = Self.fingerprint(pattern)
        stems.insert(stem)
        if let fileExtension {
            claimed.insert(Self.fingerprint(pattern.withExtension(fileExtension)))
        } else {
            wildcards.insert(stem)
        }
        if keepsOriginal, let original = pattern.originalPattern.map(Self.fingerprint) {
            stems.insert(original)
            wildcards.insert(original)
        }
    }

    /// The unclaimed pattern of item `index` under `template`: the general way, for any item.
    static func pattern(for item: DownloadItem, index: Int, template: String) -> FileNamePattern {
        let source = item.name ?? FileNameSanitizer.lastPathComponent(of: item.url)
        let stem = FileNameSanitizer.sanitize(
            FileNameSanitizer.stem(of: FileNameSanitizer.sanitize(source, limit: .max)))
        let host = FileNameSanitizer.sanitize(item.url.host ?? "")
        let pattern = FileNamePattern(template: template, index: index, name: stem, host: host)
        guard pattern.needsFallback else { return pattern }
        return FileNamePattern(template: "index-\(index + 1)", index: index, name: "", host: host)
    }

    /// The same pattern as ``pattern(for:index:template:)`` without Foundation, for the common case: the
    /// default template and a name (given, or the URL's last path segment) of plain ASCII that sanitizing
    /// leaves as it is; `nil` for anything else. Naming every item of a 200,000-line list the general way
    /// (URLComponents, percent-decoding, sanitizing through `String`) was 29% of a resumed run.
    static func plainPattern(for item: DownloadItem, template: String) -> FileNamePattern? {
        guard template == FileNamePattern.defaultTemplate else { return nil }
        let stem: String?
        if let name = item.name {
            stem = FileNameSanitizer.plainStem(of: Array(name.utf8)[...])
        } else {
            guard item.url.baseURL == nil else { return nil }
            var url = item.url.absoluteString
            stem = url.withUTF8 { bytes in
                FileNameSanitizer.plainLastSegment(ofURL: bytes).flatMap { FileNameSanitizer.plainStem(of: $0) }
            }
        }
        return stem.map(FileNamePattern.init(plainStem:))
    }

    private static func fingerprint(_ pattern: FileNamePattern) -> UInt64 {
        pattern.collisionFingerprint
    }
}
