import PixpipeLocking

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
