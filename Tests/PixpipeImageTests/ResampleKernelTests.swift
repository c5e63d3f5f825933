import Testing

@testable import PixpipeImage

@Suite("Resampler kernels: the cached weights and the AVX2 loops give the Swift loops' results to the bit")
struct ResampleKernelTests {
    @Test func cachedWeightsEqualFreshOnes() {
        for (input, output) in [(576, 256), (384, 171), (768, 256), (100, 300)] {
            let fresh = ResampleWeights(filter: .lanczos3, inputSize: input, outputSize: output)
            for _ in 0..<2 {
                let cached = ResampleWeights.cached(filter: .lanczos3, inputSize: input, outputSize: output)
                #expect(cached.values == fresh.values && cached.starts == fresh.starts)
                #expect(cached.counts == fresh.counts && cached.stride == fresh.stride)
            }
        }
    }

    /// A window summed in one sweep equals pairwise `addRows` (odd and even tap counts, a length with a tail).
    @Test(arguments: [1, 2, 7, 14, 19])
    func oneSweepEqualsPairwiseSums(_ count: Int) {
        var generator = SystemRandomNumberGenerator()
        let length = 16 * 5 + 8 + 3
        let rows = (0..<count).map { _ in (0..<length).map { _ in Float.random(in: -0.1...1.1, using: &generator) } }
        let weights = (0..<count).map { _ in Float.random(in: -0.2...0.6, using: &generator) }
        var pairwise = [Float](repeating: 0, count: length)
        var oneSweep = [Float](repeating: .nan, count: length)
        let pointers = rows.map { row in
            let copy = UnsafeMutablePointer<Float>.allocate(capacity: length)
            copy.initialize(from: row, count: length)
            return copy
        }
        defer { pointers.forEach { $0.deallocate() } }
        pairwise.withUnsafeMutableBufferPointer { destination in
            for tap in stride(from: 0, to: count, by: 2) {
                RowKernels.addRows(
                    pointers[tap], weights[tap], tap + 1 < count ? UnsafePointer(pointers[tap + 1]) : nil,
                    tap + 1 < count ? weights[tap + 1] : 0, length: length, into: destination.baseAddress!,
                    overwriting: tap == 0)
            }
        }
        let rowPointers: [UnsafePointer<Float>?] = pointers.map { UnsafePointer($0) }
        let summed = oneSweep.withUnsafeMutableBufferPointer { destination in
            RowKernels.sumRows(rowPointers, weights, count: count, length: length, into: destination.baseAddress!)
        }
        // Without AVX2 nothing is written and the caller adds pairs.
        if summed { #expect(oneSweep.map(\.bitPattern) == pairwise.map(\.bitPattern)) }
        // The pairwise sums themselves, against plain Swift arithmetic in the same order.
        for index in 0..<length {
            var sum = weights[0] * rows[0][index]
            if count > 1 { sum = sum + weights[1] * rows[1][index] }
            for tap in stride(from: 2, to: count, by: 2) {
                var pair = weights[tap] * rows[tap][index]
                if tap + 1 < count { pair = pair + weights[tap + 1] * rows[tap + 1][index] }
                sum = sum + pair
            }
            #expect(sum.bitPattern == pairwise[index].bitPattern)
        }
    }

    @Test func bytesBecomeTheSameFloats() {
        let bytes = (0..<(3 * 37)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var floats = [Float](repeating: 0, count: bytes.count + 4)
        let codec = SampleCodec(format: .rgb8, linearLight: false)
        bytes.withUnsafeBytes { source in
            floats.withUnsafeMutableBufferPointer { destination in
                codec.decodeRow(source.baseAddress!, width: 37, into: destination.baseAddress!)
            }
        }
        for (index, byte) in bytes.enumerated() { #expect(floats[index] == Float(byte) * (Float(1) / 255)) }
    }
}
