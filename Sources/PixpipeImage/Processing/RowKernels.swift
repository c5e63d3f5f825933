/// The inner loops of resampling, on rows of working floats.
enum RowKernels {
    /// `destination[i] (+)= weightA * rowA[i] + weightB * rowB[i]` for `i` in `0..<length`; `rowB` may be
    /// absent, and `overwriting` starts a new sum instead of adding to it. The loops vectorize.
    static func addRows(
        _ rowA: UnsafePointer<Float>, _ weightA: Float, _ rowB: UnsafePointer<Float>?, _ weightB: Float, length: Int,
        into destination: UnsafeMutablePointer<Float>, overwriting: Bool
    ) {
        switch (rowB, overwriting) {
        case (let rowB?, true):
            for index in 0..<length { destination[index] = weightA * rowA[index] + weightB * rowB[index] }
        case (let rowB?, false):
            for index in 0..<length { destination[index] += weightA * rowA[index] + weightB * rowB[index] }
        case (nil, true):
            for index in 0..<length { destination[index] = weightA * rowA[index] }
        case (nil, false):
            for index in 0..<length { destination[index] += weightA * rowA[index] }
        }
    }

    /// Filters one row of `weights.inputSize` pixels into `weights.outputSize` pixels.
    ///
    /// `source` must be followed by four readable floats (zero padding): pixels are loaded as SIMD4
    /// vectors, and one-channel rows take four taps per load (the padded weights are zero).
    static func filterHorizontally(
        _ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, weights: ResampleWeights,
        channels: Int
    ) {
        let starts = weights.starts
        let counts = weights.counts
        weights.values.withUnsafeBufferPointer { buffer in
            guard let weightBase = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(source)
            let floatSize = MemoryLayout<Float>.size
            let pixelBytes = channels &* floatSize
            let outputSize = weights.outputSize
            for output in 0..<outputSize {
                let start = starts[output]
                let count = counts[output]
                let tapWeights = weightBase + output &* weights.stride
                if channels == 1 {
                    var sum = SIMD4<Float>(repeating: 0)
                    for tap in Swift.stride(from: 0, to: count, by: 4) {
                        let samples = raw.loadUnaligned(
                            fromByteOffset: (start + tap) * floatSize, as: SIMD4<Float>.self)
                        let taps = UnsafeRawPointer(tapWeights + tap).loadUnaligned(as: SIMD4<Float>.self)
                        sum += samples * taps
                    }
                    destination[output] = sum.sum()
                } else {
                    // Wrapping arithmetic: offsets stay inside the padded row, and the overflow checks
                    // were a fifth of this loop's instructions. (Two taps per iteration made LLVM mix
                    // the lanes with shuffles: 16 instructions a tap instead of 8.)
                    var sum = SIMD4<Float>(repeating: 0)
                    var pixel = raw + start &* pixelBytes
                    for tap in 0..<count {
                        sum += SIMD4<Float>(repeating: tapWeights[tap]) * pixel.loadUnaligned(as: SIMD4<Float>.self)
                        pixel += pixelBytes
                    }
                    let out = destination + output &* channels
                    if output &+ 1 < outputSize {
                        // One vector store; the lanes past this pixel land on the next one, which the next
                        // output overwrites, so nothing past the row is written.
                        UnsafeMutableRawPointer(out).storeBytes(of: sum, as: SIMD4<Float>.self)
                    } else {
                        for channel in 0..<channels { out[channel] = sum[channel] }
                    }
                }
            }
        }
    }
}
