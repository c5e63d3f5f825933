/// Turns the CMYK samples of a four-channel JPEG into RGB.
///
/// Without colour management the usual approximation is used: each colour channel is what the ink
/// lets through times what the black ink lets through, `R = (255 - C) * (255 - K) / 255`.
/// Adobe applications (the files with an APP14 marker, nearly every CMYK JPEG) store the samples
/// inverted, `C' = 255 - C`, which turns the same formula into `R = C' * K' / 255`.
enum CMYKConverter {
    /// Converts `pixelCount` CMYK pixels at `source` into RGB pixels at `destination`.
    ///
    /// `inverted` says the samples are stored inverted (Adobe APP14 marker seen).
    static func convert(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, pixelCount: Int,
        inverted: Bool
    ) {
        precondition(source.count >= pixelCount * 4 && destination.count >= pixelCount * 3, "buffers too small")
        for pixel in 0..<pixelCount {
            let black = light(source[pixel * 4 + 3], inverted: inverted)
            for channel in 0..<3 {
                let ink = light(source[pixel * 4 + channel], inverted: inverted)
                // Rounded to nearest: 255 is odd, so there are no ties.
                destination[pixel * 3 + channel] = UInt8((ink * black + 127) / 255)
            }
        }
    }

    /// How much light a sample lets through, 0 (full ink) to 255 (no ink).
    private static func light(_ sample: UInt8, inverted: Bool) -> Int {
        inverted ? Int(sample) : 255 - Int(sample)
    }
}
