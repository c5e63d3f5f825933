extension DecodeOptions.JPEGScale {
    /// The numerator M of the M/8 scale libjpeg decodes a `width` x `height` JPEG at.
    ///
    /// `.eighths(M)` with M outside 1...8 falls back to full size (8/8): the result is then larger
    /// than asked for, never wrong, and the pixel limit still applies to it.
    func numerator(width: Int, height: Int) -> Int {
        switch self {
        case .full:
            return 8
        case .eighths(let numerator):
            return (1...8).contains(numerator) ? numerator : 8
        case .atLeast(let targetWidth, let targetHeight):
            let fits = (1...8).first { numerator in
                Self.scaled(width, by: numerator) >= targetWidth && Self.scaled(height, by: numerator) >= targetHeight
            }
            return fits ?? 8
        }
    }

    /// A side at `numerator`/8, rounded up as libjpeg's `jpeg_calc_output_dimensions` does.
    static func scaled(_ side: Int, by numerator: Int) -> Int {
        (side * numerator + 7) / 8
    }
}
