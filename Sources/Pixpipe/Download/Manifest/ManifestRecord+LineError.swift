import PixpipeLocking

extension ManifestRecord {
    /// The failed record of an unusable list line: its `url` is the offending text (or `line N` when there is
    /// none), its `errorKind` the line error's ``URLListError/shortName``, with no attempt made. The `error`
    /// quotes the line, so its controls are escaped, like every `error` of the manifest.
    init(lineError error: URLListError) {
        self.init(
            url: error.offendingText, status: .failed, attempts: 0, error: UntrustedText.escaped(error.description),
            errorKind: error.shortName)
    }

    /// Whether the record is one of an unusable list line (its `errorKind` is a line error's name).
    var isLineError: Bool {
        Self.isLineError(kind: errorKind)
    }

    /// Whether `errorKind` names a line error.
    static func isLineError(kind errorKind: String?) -> Bool {
        errorKind.map { URLListError.ShortName(rawValue: $0) != nil } ?? false
    }
}
