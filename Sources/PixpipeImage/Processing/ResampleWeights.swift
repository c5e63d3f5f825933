import PixpipeLocking
/// The filter weights of one axis, computed once: for each output position, the first source index
/// and the normalized weights of the source samples that contribute to it.
struct ResampleWeights: Sendable {
    /// The number of source positions.
    let inputSize: Int
    /// The number of output positions.
    let outputSize: Int
    /// The first contributing source index of each output position.
    let starts: [Int]
    /// The number of contributing source positions of each output position.
    let counts: [Int]
    /// The weights, `stride` per output position; entries past `counts[i]` are zero.
    let values: [Float]
    /// Weights stored per output position, `counts.max()` rounded up to a multiple of 4 for SIMD loads.
    let stride: Int
    /// The largest `counts` entry.
    let maximumCount: Int

    /// The weights resampling `inputSize` positions onto `outputSize`, with pixel centres aligned.
    ///
    /// The kernel is widened by the downscale factor, so it also low-passes; weights are computed in
    /// `Double` and normalized to sum to 1, so a constant signal stays constant. Source positions past
    /// an edge are dropped (and the rest renormalized). The box filter takes the exact overlap of each
    /// source pixel with the output pixel's footprint, so integer ratios give exact area averages.
    init(filter: ResizeFilter, inputSize: Int, outputSize: Int) {
        precondition(inputSize > 0 && outputSize > 0)
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter == .box ? max(scale, 1) / 2 : filter.support * filterScale
        var starts = [Int](repeating: 0, count: outputSize)
        var counts = [Int](repeating: 0, count: outputSize)
        var perOutput: [[Double]] = []
        perOutput.reserveCapacity(outputSize)
        for index in 0..<outputSize {
            let centre = (Double(index) + 0.5) * scale
            let low = max(0, Int((centre - support).rounded(.down)))
            let high = min(inputSize, Int((centre + support).rounded(.up)))
            var weights = (low..<high).map { source in
                filter == .box
                    ? Self.overlap(source, centre: centre, width: scale)
                    : filter.weight(at: (Double(source) + 0.5 - centre) / filterScale)
            }
            var first = low
            while let leading = weights.first, leading == 0 {
                weights.removeFirst()
                first += 1
            }
            while let trailing = weights.last, trailing == 0 { weights.removeLast() }
            let sum = weights.reduce(0, +)
            if weights.isEmpty || sum == 0 {
                // Cannot happen with these kernels; the nearest source sample keeps the output defined.
                first = min(inputSize - 1, Int(centre))
                weights = [1]
            } else {
                weights = weights.map { $0 / sum }
            }
            starts[index] = first
            counts[index] = weights.count
            perOutput.append(weights)
        }
        let maximumCount = counts.max() ?? 1
        let stride = (maximumCount + 3) / 4 * 4
        var values = [Float](repeating: 0, count: outputSize * stride)
        for (index, weights) in perOutput.enumerated() {
            for (tap, weight) in weights.enumerated() { values[index * stride + tap] = Float(weight) }
        }
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.starts = starts
        self.counts = counts
        self.values = values
        self.stride = stride
        self.maximumCount = maximumCount
    }

    /// The length of source pixel `source` (the interval [source, source + 1)) inside the footprint
    /// of `width` source pixels centred on `centre`.
    private static func overlap(_ source: Int, centre: Double, width: Double) -> Double {
        let left = max(Double(source), centre - width / 2)
        let right = min(Double(source + 1), centre + width / 2)
        return max(0, right - left)
    }

    /// The weights of output position `index`, as doubles, for tests and diagnostics.
    func weights(at index: Int) -> [Double] {
        (0..<counts[index]).map { Double(values[index * stride + $0]) }
    }
}

extension ResampleWeights {
    /// What identifies one axis's weights: they depend on nothing else.
    struct Key: Hashable {
        let filter: ResizeFilter
        let inputSize: Int
        let outputSize: Int
    }

    /// The cached weights and the bytes they hold.
    private struct Cache {
        var entries: [Key: ResampleWeights] = [:]
        var byteCount = 0
    }

    /// Weights computed in this process, shared by every resize: a folder or a download list of photos
    /// meets few distinct (source, target) sizes, and computing Lanczos-3 weights (a `sin` per tap, in
    /// `Double`) was 4% of a 256 px thumbnail's instructions.
    private static let cache = Locked(Cache())

    /// The most bytes of weights kept; past it the cache is emptied (it only bounds memory against a stream
    /// of distinct sizes: a thumbnail's two axes take a few tens of kilobytes).
    static let cacheByteBudget = 1 << 20

    /// The weights for `filter` from `inputSize` onto `outputSize`, computed once per process (while
    /// they fit ``cacheByteBudget``); equal to ``init(filter:inputSize:outputSize:)``'s.
    static func cached(filter: ResizeFilter, inputSize: Int, outputSize: Int) -> ResampleWeights {
        let key = Key(filter: filter, inputSize: inputSize, outputSize: outputSize)
        if let known = cache.withLock({ $0.entries[key] }) { return known }
        // Computed outside the lock: two threads meeting a new size at once both compute it, which is
        // cheaper than making every other resize wait.
        let made = ResampleWeights(filter: filter, inputSize: inputSize, outputSize: outputSize)
        let bytes = made.byteCount
        if bytes <= cacheByteBudget / 4 {
            cache.withLock { cache in
                if cache.byteCount + bytes > cacheByteBudget { cache = Cache() }
                if cache.entries.updateValue(made, forKey: key) == nil { cache.byteCount += bytes }
            }
        }
        return made
    }

    /// The bytes of the three arrays.
    private var byteCount: Int {
        values.count * MemoryLayout<Float>.stride + (starts.count + counts.count) * MemoryLayout<Int>.stride
    }
}
