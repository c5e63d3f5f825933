/// One resize job: the weights of both axes and the choice of which axis to filter first.
///
/// Work happens per band of output rows (`resampleRows`), each band owning its scratch memory, so bands
/// can run on different cores. Samples are worked on as `Float` in 0...1, premultiplied by alpha and,
/// optionally, in linear light (`SampleCodec`).
///
/// Source rows are "prepared" once into a small ring of rows: converted to working floats and, when the
/// horizontal pass goes first, already filtered horizontally. Each output row is then a weighted sum of
/// the ring rows its vertical window covers, which vectorizes well, so memory stays a few rows per band
/// whatever the image size.
struct Resampler: Sendable {
    /// The horizontal weights (source width onto output width).
    let horizontal: ResampleWeights
    /// The vertical weights (source height onto output height).
    let vertical: ResampleWeights
    /// How samples enter and leave the working space.
    let codec: SampleCodec
    /// Whether the vertical pass runs on full source-width rows before the horizontal pass.
    let verticalFirst: Bool

    /// A job resizing `sourceWidth` x `sourceHeight` pixels of `format` to `outputWidth` x `outputHeight`.
    init(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, format: PixelFormat,
        filter: ResizeFilter, linearLight: Bool
    ) {
        horizontal = ResampleWeights(filter: filter, inputSize: sourceWidth, outputSize: outputWidth)
        vertical = ResampleWeights(filter: filter, inputSize: sourceHeight, outputSize: outputHeight)
        codec = SampleCodec(format: format, linearLight: linearLight)
        // Multiply-adds of each order; the horizontal pass counts double as it vectorizes less well.
        let channels = format.channels
        let verticalThenHorizontal =
            outputHeight * sourceWidth * vertical.maximumCount + 2 * outputHeight * outputWidth
            * horizontal.maximumCount
        let horizontalThenVertical =
            2 * sourceHeight * outputWidth * horizontal.maximumCount + outputHeight * outputWidth
            * vertical.maximumCount
        verticalFirst = verticalThenHorizontal * channels <= horizontalThenVertical * channels
    }

    /// A rough count of multiply-adds, to decide whether splitting across cores pays.
    var estimatedWork: Int {
        let rowWidth = verticalFirst ? horizontal.inputSize : horizontal.outputSize
        return vertical.outputSize * rowWidth * vertical.maximumCount * codec.channels
    }

    /// Fills output rows `rows` of `destination` from the whole of `source` (both tightly packed).
    func resampleRows(_ rows: Range<Int>, source: UnsafeRawPointer, destination: UnsafeMutableRawPointer) {
        guard !rows.isEmpty else { return }
        let channels = codec.channels
        let sourceWidth = horizontal.inputSize
        let outputWidth = horizontal.outputSize
        let sourceRowBytes = sourceWidth * codec.bytesPerPixel
        let outputRowBytes = outputWidth * codec.bytesPerPixel
        // Four floats of zero padding after every row let the horizontal pass load SIMD4 vectors
        // past the last pixel; the padding is never written, so it stays zero.
        let preparedWidth = (verticalFirst ? sourceWidth : outputWidth) * channels
        let preparedStride = preparedWidth + 4
        let capacity = vertical.maximumCount
        var ring = [Float](repeating: 0, count: capacity * preparedStride)
        var ringRowOfSlot = [Int](repeating: -1, count: capacity)
        var converted = [Float](repeating: 0, count: verticalFirst ? 0 : sourceWidth * channels + 4)
        var summed = [Float](repeating: 0, count: preparedStride)
        var filtered = [Float](repeating: 0, count: verticalFirst ? outputWidth * channels + 4 : 0)
        var slotPointers = [UnsafePointer<Float>?](repeating: nil, count: capacity)

        ring.withUnsafeMutableBufferPointer { ringBuffer in
            converted.withUnsafeMutableBufferPointer { convertedBuffer in
                summed.withUnsafeMutableBufferPointer { summedBuffer in
                    filtered.withUnsafeMutableBufferPointer { filteredBuffer in
                        vertical.values.withUnsafeBufferPointer { verticalWeights in
                            guard let ringBase = ringBuffer.baseAddress, let sum = summedBuffer.baseAddress,
                                let weightBase = verticalWeights.baseAddress
                            else { return }
                            for row in rows {
                                let start = vertical.starts[row]
                                let count = vertical.counts[row]
                                for tap in 0..<count {
                                    let sourceRow = start + tap
                                    let slot = sourceRow % capacity
                                    let slotBase = ringBase + slot * preparedStride
                                    if ringRowOfSlot[slot] != sourceRow {
                                        let bytes = source + sourceRow * sourceRowBytes
                                        if verticalFirst {
                                            codec.decodeRow(bytes, width: sourceWidth, into: slotBase)
                                        } else if let scratch = convertedBuffer.baseAddress {
                                            codec.decodeRow(bytes, width: sourceWidth, into: scratch)
                                            RowKernels.filterHorizontally(
                                                scratch, into: slotBase, weights: horizontal, channels: channels)
                                        }
                                        ringRowOfSlot[slot] = sourceRow
                                    }
                                    slotPointers[tap] = UnsafePointer(slotBase)
                                }
                                RowKernels.sumRows(
                                    slotPointers, count: count, weights: weightBase + row * vertical.stride,
                                    length: preparedWidth, into: sum)
                                let outputRow = destination + row * outputRowBytes
                                if verticalFirst, let result = filteredBuffer.baseAddress {
                                    RowKernels.filterHorizontally(
                                        sum, into: result, weights: horizontal, channels: channels)
                                    codec.encodeRow(result, width: outputWidth, into: outputRow)
                                } else {
                                    codec.encodeRow(sum, width: outputWidth, into: outputRow)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
