import Foundation

extension Image {
    /// The peak signal-to-noise ratio between two images of the same size and channels, in decibels.
    ///
    /// Every sample counts (alpha included), measured on the 8-bit scale (16-bit samples are divided by
    /// 257), so 8- and 16-bit images compare directly. Identical images give `.infinity`; about 30 dB
    /// is visibly different, 40 dB hard to see, 50 dB a rounding difference.
    ///
    /// ```swift
    /// let quality = fast.psnr(reference)   // 47.3
    /// ```
    package func psnr(_ other: Image) -> Double {
        precondition(
            width == other.width && height == other.height && pixelFormat.channels == other.pixelFormat.channels,
            "PSNR compares images of the same size and channel count")
        let first = eightBitScaleSamples()
        let second = other.eightBitScaleSamples()
        var squaredError = 0.0
        for index in first.indices {
            let difference = first[index] - second[index]
            squaredError += difference * difference
        }
        if squaredError == 0 { return .infinity }
        let meanSquaredError = squaredError / Double(first.count)
        return 10 * log10(255 * 255 / meanSquaredError)
    }

    /// Every sample on the 0...255 scale.
    private func eightBitScaleSamples() -> [Double] {
        if pixelFormat.bitsPerSample == 8 { return pixels.map(Double.init) }
        return samples16.map { Double($0) / 257 }
    }
}
