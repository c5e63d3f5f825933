extension JPEGCodec {
    /// The DCT scale numerator (M of M/8) a thumbnail of a `width` x `height` JPEG resized to `target` decodes at.
    ///
    /// It starts from ``Thumbnailer/jpegScaleNumerator(width:height:targetWidth:targetHeight:)`` (at least
    /// twice the target) and steps down to the next scale libjpeg-turbo reduces with SIMD code on x86-64
    /// (1/2 and 1/4 have SSE2 inverse DCTs, 1/8 keeps only the DC term) when that one still keeps at least
    /// ``fastScaleMarginInTenths`` / 10 times the target in both axes. The other scales (3/8, 5/8, 6/8, 7/8) run
    /// libjpeg's plain C inverse DCTs, on luma and, at twice the size, on 4:2:0 chroma (libjpeg scales
    /// chroma up through its IDCT): a 768x512 photo into 256 px decodes at 4/8 instead of 6/8, 3.6x fewer
    /// instructions in the IDCT and a third fewer pixels for colour conversion and the resampler. The
    /// measured cost is a few hundredths of a decibel against the float reference (docs/benchmarks.md).
    static func thumbnailScaleNumerator(width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> Int {
        let numerator = Thumbnailer.jpegScaleNumerator(
            width: width, height: height, targetWidth: targetWidth, targetHeight: targetHeight)
        guard !fastNumerators.contains(numerator),
            let fast = fastNumerators.last(where: { $0 < numerator })
        else { return numerator }
        let keepsMargin =
            10 * DecodeOptions.JPEGScale.scaled(width, by: fast) >= fastScaleMarginInTenths * targetWidth
            && 10 * DecodeOptions.JPEGScale.scaled(height, by: fast) >= fastScaleMarginInTenths * targetHeight
        return keepsMargin ? fast : numerator
    }

    /// The scales (M of M/8) whose inverse DCT libjpeg-turbo 2.1 runs in SIMD code (or, for 1/8, skips).
    static let fastNumerators = [1, 2, 4, 8]

    /// How many times the target, in tenths, a SIMD scale must keep to be chosen over a slower, larger one:
    /// 1.4x. Not 1.5x: a 3:2 photo fit into 256 px is 256x171 (170.67 rounded up), so its 1/2 decode
    /// (384x256) keeps 1.5x in width but 1.497x in height, and a 1.5x rule would miss the commonest case.
    static let fastScaleMarginInTenths = 14
}
