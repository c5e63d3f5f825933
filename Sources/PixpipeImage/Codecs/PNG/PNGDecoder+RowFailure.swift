extension PNGDecoder {
    /// A failure while reading pixels or trailing chunks, kept so lenient mode can turn it into a warning.
    struct RowFailure {
        /// The error strict mode throws.
        var error: ImageDecodingError
        /// Rows completed before the failure.
        var rowsRead: Int
        /// The warning lenient mode records, through ``PNGWarningTable``; the message says how much of the
        /// image was decoded. `height` is `nil` for a failure after the image data.
        func warning(height: Int? = nil, isInterlaced: Bool = false) -> DecodeWarning {
            let reason: String
            switch error {
            case .truncated(_, let message), .corrupt(_, let message): reason = message
            default: reason = error.description
            }
            let rule = PNGWarningTable.rule(for: error, afterImageData: height == nil)
            guard let height else { return rule.warning("\(reason) after the image data") }
            let progress =
                isInterlaced
                ? "during the interlaced passes; missing samples are zero"
                : "after \(rowsRead) of \(height) rows; missing rows are zero"
            return rule.warning("\(reason) \(progress)")
        }
    }
}
