/// One resize job: the weights of both axes and the choice of which axis to filter first.
///
/// Work happens per band of output rows (`resampleRows`), each band owning its scratch memory, so bands
/// can run on different cores. Samples are worked on as `Float` in 0...1, premultiplied by alpha and,
/// optionally, in linear light (`SampleCodec`).
///
/// Source rows are "prepared" once (while a window fits the ring) into a small ring of rows: converted to working floats and, when the
/// horizontal pass goes first, already filtered horizontally. Each output row is then a weighted sum of
/// the ring rows its vertical window covers, which vectorizes well. The ring holds one vertical window
/// (a few rows) within a byte budget, so memory per band does not grow with the image's height.
struct Resampler: Sendable {
    /// The horizontal weights (source width onto output width).
    let horizontal: ResampleWeights
    /// The vertical weights (source height onto output height).
    let vertical: ResampleWeights
    /// How samples enter and leave the working space.
    let codec: SampleCodec
    /// The horizontal weights, each repeated in four lanes, for pixels of more than one channel: the tap
    /// loop then multiplies by a loaded vector instead of broadcasting a float each tap (two instructions).
    let horizontalLanes: [SIMD4<Float>]
    /// Whether the vertical pass runs on full source-width rows before the horizontal pass.
    var verticalFirst: Bool

    /// A job resizing `sourceWidth` x `sourceHeight` pixels of `format` to `outputWidth` x `outputHeight`.
    init(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, format: PixelFormat,
        filter: ResizeFilter, linearLight: Bool
    ) {
        horizontal = ResampleWeights.cached(filter: filter, inputSize: sourceWidth, outputSize: outputWidth)
        vertical = ResampleWeights.cached(filter: filter, inputSize: sourceHeight, outputSize: outputHeight)
        codec = SampleCodec(format: format, linearLight: linearLight)
        horizontalLanes = format.channels > 1 ? horizontal.values.map { SIMD4(repeating: $0) } : []
        // Multiply-adds of each order; the horizontal pass counts double as it vectorizes less well.
        var verticalThenHorizontal =
            outputHeight * sourceWidth * vertical.maximumCount + 2 * outputHeight * outputWidth
            * horizontal.maximumCount
        let horizontalThenVertical =
            2 * sourceHeight * outputWidth * horizontal.maximumCount + outputHeight * outputWidth
            * vertical.maximumCount
        // Full-width source rows may not all fit the ring on a large downscale; each row is then
        // prepared once per window that covers it.
        let ringRows = Self.defaultRingByteBudget / ((sourceWidth * format.channels + 4) * MemoryLayout<Float>.stride)
        if vertical.maximumCount > ringRows {
            let windowsPerRow = max(1, vertical.maximumCount * outputHeight / sourceHeight)
            verticalThenHorizontal += 2 * sourceHeight * sourceWidth * windowsPerRow
        }
        verticalFirst = verticalThenHorizontal <= horizontalThenVertical
    }

    /// A rough count of multiply-adds, to decide whether splitting across cores pays.
    var estimatedWork: Int {
        let rowWidth = verticalFirst ? horizontal.inputSize : horizontal.outputSize
        return vertical.outputSize * rowWidth * vertical.maximumCount * codec.channels
    }

    /// The most memory one band's ring of prepared rows may take, in bytes.
    ///
    /// A window of source rows wider than the ring (a very large downscale) still works: rows are
    /// then prepared again when the next window needs them, trading time for bounded memory.
    var ringByteBudget = Self.defaultRingByteBudget

    /// The ring budget of every job: 16 MiB per band.
    static let defaultRingByteBudget = 16 << 20

    /// Fills output rows `rows` of `destination` from the whole of `source` (both tightly packed).
    func resampleRows(_ rows: Range<Int>, source: UnsafeRawPointer, destination: UnsafeMutableRawPointer) {
        let sourceRowBytes = horizontal.inputSize * codec.bytesPerPixel
        resampleRows(rows, sourceRow: { source + $0 * sourceRowBytes }, destination: destination)
    }

    /// Fills output rows `rows` of `destination`, asking `sourceRow` for the bytes of each source row.
    ///
    /// Rows are asked for in increasing order, each once, as long as a vertical window fits the ring
    /// (`vertical.maximumCount` rows within `ringByteBudget`), so a decoder producing rows one after the
    /// other can feed it; otherwise earlier rows are asked for again.
    func resampleRows(
        _ rows: Range<Int>, sourceRow: (Int) -> UnsafeRawPointer, destination: UnsafeMutableRawPointer
    ) {
        guard !rows.isEmpty else { return }
        let channels = codec.channels
        let sourceWidth = horizontal.inputSize
        let outputWidth = horizontal.outputSize
        let outputRowBytes = outputWidth * codec.bytesPerPixel
        // Four floats of zero padding after every row let the horizontal pass load SIMD4 vectors
        // past the last pixel; the padding is never written, so it stays zero.
        let preparedWidth = (verticalFirst ? sourceWidth : outputWidth) * channels
        let preparedStride = preparedWidth + 4
        let rowsInBudget = ringByteBudget / (preparedStride * MemoryLayout<Float>.stride)
        // At least two slots, so the two rows summed together never share one.
        let capacity = max(2, min(vertical.maximumCount, rowsInBudget))
        let ring = Self.zeroedFloats(capacity * preparedStride)
        let converted = Self.zeroedFloats(verticalFirst ? 0 : sourceWidth * channels + 4)
        let summed = Self.zeroedFloats(preparedStride)
        let filtered = Self.zeroedFloats(verticalFirst ? outputWidth * channels + 4 : 0)
        defer {
            for buffer in [ring, converted, summed, filtered] { buffer.deallocate() }
        }
        var ringRowOfSlot = [Int](repeating: -1, count: capacity)
        let windowRows = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: vertical.maximumCount)
        defer { windowRows.deallocate() }

        /// The prepared row `sourceRowIndex`, from the ring or made now.
        func preparedRow(_ sourceRowIndex: Int) -> UnsafePointer<Float> {
            let slot = sourceRowIndex % capacity
            let slotBase = ring + slot * preparedStride
            if ringRowOfSlot[slot] != sourceRowIndex {
                let bytes = sourceRow(sourceRowIndex)
                if verticalFirst {
                    codec.decodeRow(bytes, width: sourceWidth, into: slotBase)
                } else {
                    codec.decodeRow(bytes, width: sourceWidth, into: converted)
                    RowKernels.filterHorizontally(
                        converted, into: slotBase, weights: horizontal, lanes: horizontalLanes, channels: channels)
                }
                ringRowOfSlot[slot] = sourceRowIndex
            }
            return UnsafePointer(slotBase)
        }

        vertical.values.withUnsafeBufferPointer { verticalWeights in
            guard let weightBase = verticalWeights.baseAddress else { return }
            for row in rows {
                let start = vertical.starts[row]
                let count = vertical.counts[row]
                let weights = weightBase + row * vertical.stride
                // The whole window in one sweep, the sum in registers, when all its rows can be in the
                // ring at once (and the CPU has AVX2); otherwise two source rows per sweep, which halves
                // the traffic through `summed`. Both add the same products in the same order.
                if count <= capacity {
                    for tap in 0..<count { windowRows[tap] = preparedRow(start + tap) }
                }
                let summedAtOnce =
                    count <= capacity
                    && RowKernels.sumRows(windowRows, weights, count: count, length: preparedWidth, into: summed)
                for tap in stride(from: 0, to: summedAtOnce ? 0 : count, by: 2) {
                    let first = preparedRow(start + tap)
                    let second = tap + 1 < count ? preparedRow(start + tap + 1) : nil
                    RowKernels.addRows(
                        first, weights[tap], second, tap + 1 < count ? weights[tap + 1] : 0, length: preparedWidth,
                        into: summed, overwriting: tap == 0)
                }
                let outputRow = destination + row * outputRowBytes
                if verticalFirst {
                    RowKernels.filterHorizontally(
                        summed, into: filtered, weights: horizontal, lanes: horizontalLanes, channels: channels)
                    codec.encodeRow(filtered, width: outputWidth, into: outputRow)
                } else {
                    codec.encodeRow(summed, width: outputWidth, into: outputRow)
                }
            }
        }
    }

    /// `count` floats set to zero, to be deallocated by the caller.
    private static func zeroedFloats(_ count: Int) -> UnsafeMutablePointer<Float> {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count))
        buffer.initialize(repeating: 0, count: max(1, count))
        return buffer
    }
}

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
