import Foundation

/// Gives every item of a batch its file name pattern, in list order, with a stable suffix on collisions.
///
/// Names are decided when an item is read from the list, before any download, in the order of the list:
/// the first item wanting `photo.{ext}` gets it, the next gets `photo-2.{ext}`, then `photo-3.{ext}`. So the
/// names never depend on which download finishes first, a rerun or a resumed run computes the same names,
/// and every shard (which sees the whole list and claims names for items it does not download) agrees, so
/// shard folders merge without clashes. The comparison ignores case and the extension is part of the key
/// only as a placeholder, so `a.png` and `a.jpg` URLs become `a.png` and `a-2.jpg` whatever the bytes are.
///
/// Names the folder's manifest already gives out (``RecordedNames``: earlier runs, other lists) count as
/// claimed for every other URL; a URL that holds a recorded name keeps it. When originals are kept, an
/// item's name is only free if its original's (`photo.original.{ext}`) is too, and claiming one claims both.
///
/// Memory: only 8-byte fingerprints of the claimed keys are kept, so a long list costs 8 bytes per item,
/// plus one counter per name that collided.
struct FileNameClaims: Sendable {
    private var claimed: Set<UInt64> = []
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
    init(template: String?, recorded: RecordedNames = RecordedNames(), keepsOriginal: Bool = false) {
        self.template = template ?? FileNamePattern.defaultTemplate
        self.recorded = recorded
        self.keepsOriginal = keepsOriginal
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
            if own.originalPattern != nil, isFree(own, for: fingerprint) {
                take(own)
                return (own, name)
            }
        }
        if isFree(pattern, for: fingerprint) {
            take(pattern)
            return (pattern, nil)
        }
        let base = Self.fingerprint(pattern)
        var number = nextSuffix[base] ?? 2
        var candidate = pattern.suffixed(number)
        while !isFree(candidate, for: fingerprint) {
            number += 1
            candidate = pattern.suffixed(number)
        }
        take(candidate)
        nextSuffix[base] = number + 1
        return (candidate, nil)
    }

    /// Whether `pattern` (and its original's, when kept) is claimed by no earlier item and recorded for no
    /// other URL than the one with `fingerprint`.
    private func isFree(_ pattern: FileNamePattern, for fingerprint: URLFingerprint) -> Bool {
        let key = Self.fingerprint(pattern)
        guard !claimed.contains(key), recorded.isEmpty || recorded.allows(key, to: fingerprint) else { return false }
        guard keepsOriginal, let original = pattern.originalPattern.map(Self.fingerprint) else { return true }
        return !claimed.contains(original) && recorded.allows(original, to: fingerprint)
    }

    /// Claims `pattern` (and its original's, when kept).
    private mutating func take(_ pattern: FileNamePattern) {
        claimed.insert(Self.fingerprint(pattern))
        if keepsOriginal, let original = pattern.originalPattern { claimed.insert(Self.fingerprint(original)) }
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
