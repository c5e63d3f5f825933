extension PNGDecoder {
    /// A failure while reading pixels or trailing chunks, kept so lenient mode can turn it into a warning.
    struct RowFailure {
        /// The error strict mode throws.
        var error: ImageDecodingError
        /// Rows completed before the failure.
        var rowsRead: Int
        /// Whether every row was decoded and only the data after them was refused (see
        /// ``PNGReader/stoppedAfterLastRow``).
        var isAfterLastRow = false

        /// The warning lenient mode records; the message says how much of the image was decoded.
        func warning(height: Int? = nil, isInterlaced: Bool = false) -> DecodeWarning {
            let (kind, reason): (DecodeWarning.Kind, String)
            switch error {
            case .truncated(_, let message): (kind, reason) = (.truncated, message)
            case .corrupt(_, let message): (kind, reason) = (.corrupt, message)
            default: (kind, reason) = (.corrupt, error.description)
            }
            if isAfterLastRow {
                return DecodeWarning(kind: kind, message: "\(reason); the chunks after the image data were not read")
            }
            guard let height else { return DecodeWarning(kind: kind, message: "\(reason) after the image data") }
            let progress =
                isInterlaced
                ? "during the interlaced passes; missing samples are zero"
                : "after \(rowsRead) of \(height) rows; missing rows are zero"
            return DecodeWarning(kind: kind, message: "\(reason) \(progress)")
        }
    }
}
