extension DecodeOptions {
    /// Throws the first of `warnings` that loses pixels when strict; benign warnings never throw.
    ///
    /// Every codec calls this with the warnings its table classified (see ``WarningRule``), at each step
    /// where the library may have reported something, so strict decoding of damaged data stops early.
    func enforce(_ warnings: [DecodeWarning], format: ImageFormat) throws(ImageDecodingError) {
        guard strictness == .strict, let first = warnings.first(where: \.losesPixels) else { return }
        switch first.kind {
        case .truncated: throw .truncated(format: format, reason: first.message)
        case .corrupt, .benign: throw .corrupt(format: format, reason: first.message)
        }
    }
}
