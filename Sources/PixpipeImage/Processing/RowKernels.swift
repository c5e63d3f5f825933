import CPixpipeImage

/// The inner loops of resampling, on rows of working floats.
enum RowKernels {
    /// `destination[i] (+)= weightA * rowA[i] + weightB * rowB[i]` for `i` in `0..<length`; `rowB` may be
    /// absent, and `overwriting` starts a new sum instead of adding to it. In C (`pxp_resample_add_rows`)
    /// for AVX2 when the CPU has it, with the same arithmetic to the bit.
    static func addRows(
        _ rowA: UnsafePointer<Float>, _ weightA: Float, _ rowB: UnsafePointer<Float>?, _ weightB: Float, length: Int,
        into destination: UnsafeMutablePointer<Float>, overwriting: Bool
    ) {
        pxp_resample_add_rows(rowA, weightA, rowB, weightB, length, destination, overwriting ? 1 : 0)
    }

    /// `destination[i]` = the sum over `tap < count` of `weights[tap] * rows[tap][i]`, added exactly as
    /// ``addRows(_:_:_:_:length:into:overwriting:)`` on successive pairs of taps would, with the running sum
    /// kept in registers (`pxp_resample_sum_rows`, AVX2). Returns false, having written nothing, on a CPU
    /// without AVX2.
    static func sumRows(
        _ rows: UnsafePointer<UnsafePointer<Float>?>, _ weights: UnsafePointer<Float>, count: Int, length: Int,
        into destination: UnsafeMutablePointer<Float>
    ) -> Bool {
        pxp_resample_sum_rows(rows, weights, count, length, destination) != 0
    }

    /// Filters one row of `weights.inputSize` pixels into `weights.outputSize` pixels.
    ///
    /// `source` must be followed by four readable floats (zero padding): pixels are loaded as SIMD4
    /// vectors, and one-channel rows take four taps per load (the padded weights are zero). `lanes` holds
    /// `weights.values` each repeated in four lanes; it is read only when `channels` > 1.
    static func filterHorizontally(
        _ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, weights: ResampleWeights,
        lanes: [SIMD4<Float>], channels: Int
    ) {
        if channels == 1 {
            filterOneChannel(source, into: destination, weights: weights)
            return
        }
        let starts = weights.starts
        let counts = weights.counts
        lanes.withUnsafeBufferPointer { buffer in
            guard let laneBase = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(source)
            let pixelBytes = channels &* MemoryLayout<Float>.size
            let outputSize = weights.outputSize
            for output in 0..<outputSize {
                // Wrapping arithmetic: offsets stay inside the padded row, and the overflow checks were a
                // fifth of this loop's instructions. (Two taps per iteration made LLVM mix the lanes with
                // shuffles: 16 instructions a tap instead of 8.) The products and their order of summation
                // are those of a broadcast weight, so the result is the same to the bit.
                var sum = SIMD4<Float>(repeating: 0)
                var pixel = raw + starts[output] &* pixelBytes
                var tapWeight = laneBase + output &* weights.stride
                for _ in 0..<counts[output] {
                    sum += tapWeight.pointee * pixel.loadUnaligned(as: SIMD4<Float>.self)
                    pixel += pixelBytes
                    tapWeight += 1
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

    /// ``filterHorizontally(_:into:weights:lanes:channels:)`` for one channel: four taps per load.
    private static func filterOneChannel(
        _ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, weights: ResampleWeights
    ) {
        let starts = weights.starts
        let counts = weights.counts
        weights.values.withUnsafeBufferPointer { buffer in
            guard let weightBase = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(source)
            let floatSize = MemoryLayout<Float>.size
            for output in 0..<weights.outputSize {
                let start = starts[output]
                let tapWeights = weightBase + output &* weights.stride
                var sum = SIMD4<Float>(repeating: 0)
                for tap in Swift.stride(from: 0, to: counts[output], by: 4) {
                    let samples = raw.loadUnaligned(fromByteOffset: (start + tap) * floatSize, as: SIMD4<Float>.self)
                    let taps = UnsafeRawPointer(tapWeights + tap).loadUnaligned(as: SIMD4<Float>.self)
                    sum += samples * taps
                }
                destination[output] = sum.sum()
            }
        }
    }
}
