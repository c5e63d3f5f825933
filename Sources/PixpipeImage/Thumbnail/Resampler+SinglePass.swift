extension Resampler {
    /// Makes every source row be asked for once, in increasing order, so a decoder that cannot go back
    /// (libpng reading rows) can feed ``resampleRows(_:sourceRow:destination:)``.
    ///
    /// The ring must hold a whole vertical window. When full-width rows would not fit its budget, the
    /// horizontal pass goes first (rows shrink to the output width before they are kept); the budget
    /// then grows to one window of those narrow rows, which only a pathological aspect ratio makes large.
    mutating func prepareForSinglePass() {
        if verticalFirst && windowBytes(verticalFirst: true) > ringByteBudget { verticalFirst = false }
        ringByteBudget = max(ringByteBudget, windowBytes(verticalFirst: verticalFirst))
    }

    /// The bytes of one vertical window of prepared rows (with their four floats of padding).
    private func windowBytes(verticalFirst: Bool) -> Int {
        let rowWidth = verticalFirst ? horizontal.inputSize : horizontal.outputSize
        return vertical.maximumCount * (rowWidth * codec.channels + 4) * MemoryLayout<Float>.stride
    }
}
