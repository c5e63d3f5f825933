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
        weights.values.withUnsafeBufferPointer { buffer in
            guard let weightBase = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(source)
            let floatSize = MemoryLayout<Float>.size
            for output in 0..<weights.outputSize {
                let start = weights.starts[output]
                let count = weights.counts[output]
                let tapWeights = weightBase + output * weights.stride
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
                    var sum = SIMD4<Float>(repeating: 0)
                    var offset = start * channels * floatSize
                    for tap in 0..<count {
                        sum += tapWeights[tap] * raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                        offset += channels * floatSize
                    }
                    let out = destination + output * channels
                    for channel in 0..<channels { out[channel] = sum[channel] }
                }
            }
        }
    }
}
