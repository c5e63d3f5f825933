import CLibAVIF

/// How libavif's result codes become ``ImageDecodingError`` cases (the decision table is on ``AVIFCodec``).
enum AVIFFailure {
    /// The typed error for `result`; `truncated` says the file's last top-level box runs past its end,
    /// which makes any refusal a truncation whatever code libavif reached first.
    static func error(_ result: avifResult, diagnostics: String, truncated: Bool) -> ImageDecodingError {
        let name = String(cString: avifResultToString(result))
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

    /// Whether libavif's message says one of the limits we set refused the file.
    static func isLimit(_ diagnostics: String) -> Bool {
        diagnostics.contains("imageSizeLimit") || diagnostics.contains("imageDimensionLimit")
            || diagnostics.contains("imageCountLimit") || diagnostics.contains("limit")
    }
}
