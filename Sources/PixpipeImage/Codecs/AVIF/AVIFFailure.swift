import CPixpipeAVIF

/// How libavif's result codes become ``ImageDecodingError`` cases (the decision table is on ``AVIFCodec``).
enum AVIFFailure {
    /// The typed error for `result`; `truncated` says the file's last top-level box runs past its end,
    /// which makes any refusal a truncation whatever code libavif reached first.
    static func error(_ result: avifResult, diagnostics: String, truncated: Bool) -> ImageDecodingError {
        let name = String(cString: pxp_avifResultToString(result))
        let reason = diagnostics.isEmpty ? name : "\(name): \(diagnostics)"
        if truncated || result == AVIF_RESULT_TRUNCATED_DATA { return .truncated(format: .avif, reason: reason) }
        switch result {
        case AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_UNSUPPORTED_DEPTH, AVIF_RESULT_NOT_IMPLEMENTED,
            AVIF_RESULT_REFORMAT_FAILED:
            return .unsupportedFeature(format: .avif, feature: reason)
        default:
            return .corrupt(format: .avif, reason: reason)
        }
    }

    /// Whether libavif's message marks a refusal by its strict checks only (its `[Strict]` prefix).
    static func isStrictOnly(_ diagnostics: String) -> Bool { diagnostics.hasPrefix("[Strict]") }

    /// The size in libavif's refusal of an image over its size or dimension limit
    /// (`Item ID [1] dimensions are too large [30000x30000]`), or `nil` for other messages.
    static func dimensionsTooLarge(_ diagnostics: String) -> (width: Int, height: Int)? {
        guard diagnostics.contains("too large"), let open = diagnostics.lastIndex(of: "["),
            let close = diagnostics.lastIndex(of: "]"), open < close
        else { return nil }
        let size = diagnostics[diagnostics.index(after: open)..<close].split(separator: "x")
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else { return nil }
        return (width, height)
    }

    /// Whether libavif's message says the sequence has more images than its `imageCountLimit`.
    static func isCountLimit(_ diagnostics: String) -> Bool {
        diagnostics.contains("imageCountLimit") || diagnostics.lowercased().contains("too many")
    }
}
