/// Decodes a GIF frame by frame through one giflib handle, compositing each frame on the full canvas.
///
/// Only the canvas (plus, for a restore-previous frame, one saved copy) and one row of indices are held;
/// a frame is never allocated at its own size, so a frame declared larger than the canvas costs no memory.
/// In lenient mode the decoder reads one frame ahead, so that when a frame turns out truncated or damaged
/// the last whole frame can carry the warning and end the animation.
final class GIFFrameDecoder: FrameDecoder {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    let loopCount: Int

    private let handle: GIFHandle
    private let globalPalette: GIFPalette?
    private let strictness: DecodeOptions.Strictness
    private let baseMetadata: ImageMetadata
    private var canvas: GIFCanvas
    private var control = GIFFrameControl()
    private var decodedFrames = 0
    private var finished = false
    /// Lenient mode: the frame decoded ahead of the one being returned.
    private var ahead: AnimationFrame?
    private var primed = false
    /// The first frame as far as it was drawn when its data failed (lenient mode shows it).
    private var partialFirstFrame: AnimationFrame?

    /// Opens `input` for frames; `layout` is the walk of the same bytes, whose limits the caller checked.
    init(_ input: GIFInput, layout: GIFLayout, strictness: DecodeOptions.Strictness) throws(ImageDecodingError) {
        guard layout.width > 0, layout.height > 0 else {
            throw .corrupt(format: .gif, reason: "the logical screen is \(layout.width)x\(layout.height)")
        }
        handle = try GIFHandle(input)
        canvasWidth = layout.width
        canvasHeight = layout.height
        frameCount = layout.frameCount
        loopCount = layout.loopCount
        globalPalette = handle.globalPalette
        self.strictness = strictness
        var metadata = ImageMetadata(sourceFormat: .gif, sourceBitDepth: 8)
        if layout.ending == .missingTrailer, let warning = layout.endingWarning { metadata.warnings = [warning] }
        baseMetadata = metadata
        canvas = GIFCanvas(
            width: layout.width, height: layout.height,
            background: handle.globalPalette?.entries[layout.backgroundIndex] ?? 0)
    }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard strictness == .lenient else { return try decodeFrame() }
        if !primed {
            primed = true
            ahead = try firstFrameShowingDamage()
        }
        guard var current = ahead else { return nil }
        ahead = nil
        if !finished {
            do {
                ahead = try decodeFrame()
            } catch {
                current.image.metadata.warnings.append(GIFWarningTable.warning(for: error))
            }
        }
        return current
    }

    /// The first frame; when its own data fails, the part drawn before the failure, with a warning
    /// (lenient mode, as PNG and JPEG show a truncated image).
    func firstFrameShowingDamage() throws(ImageDecodingError) -> AnimationFrame? {
        do {
            return try decodeFrame()
        } catch {
            guard var partial = partialFirstFrame else { throw error }
            partial.image.metadata.warnings.append(GIFWarningTable.warning(for: error))
            return partial
        }
    }

    /// The next frame with no look-ahead, or `nil` after the last; after an error, `nil`.
    func decodeFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard !finished else { return nil }
        do throws(ImageDecodingError) {
            while true {
                switch try handle.nextRecord() {
                case .trailer:
                    guard decodedFrames > 0 else { throw .corrupt(format: .gif, reason: "the file holds no image") }
                    finished = true
                    return nil
                case .endOfData:
                    guard decodedFrames > 0 else {
                        throw .truncated(format: .gif, reason: "the file ends before its first image")
                    }
                    finished = true
                    return nil
                case .extension:
                    let (label, blocks) = try handle.readExtension()
                    if label == GIFFrameControl.label, let block = blocks.first {
                        control = GIFFrameControl(block: block)
                    }
                case .image:
                    let frame = try drawFrame(handle.readDescriptor())
                    control = GIFFrameControl()
                    decodedFrames += 1
                    return frame
                }
            }
        } catch {
            finished = true
            throw error
        }
    }

    /// Decodes the frame's rows onto the canvas, stopping (and skipping the rest of the data) once every row
    /// that lands on the canvas is drawn.
    private func drawFrame(_ descriptor: GIFHandle.Descriptor) throws(ImageDecodingError) -> AnimationFrame {
        guard let palette = descriptor.palette ?? globalPalette else {
            throw .corrupt(format: .gif, reason: "frame \(decodedFrames) has no colour table")
        }
        let rect = canvas.clip(descriptor)
        canvas.begin(rect, control: control)
        var metadata = baseMetadata
        metadata.isInterlaced = descriptor.isInterlaced
        let landing = rect.right > rect.left ? rect.bottom - rect.top : 0
        var rowsRead = 0
        do throws(ImageDecodingError) {
            if landing > 0 {
                let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: descriptor.width)
                defer { row.deallocate() }
                var drawn = 0
                for y in GIFRowOrder(height: descriptor.height, interlaced: descriptor.isInterlaced) {
                    try handle.readRow(row)
                    rowsRead += 1
                    guard descriptor.top + y < rect.bottom else { continue }
                    canvas.draw(
                        row: UnsafeBufferPointer(row), y: descriptor.top + y, rect: rect, palette: palette,
                        transparentIndex: control.transparentIndex)
                    drawn += 1
                    if drawn == landing { break }
                }
            }
            // Rows below the canvas, or all of a frame that misses it, are skipped undecoded; once the last
            // row is read giflib has consumed the data itself.
            if rowsRead == 0 || rowsRead < descriptor.height { try handle.skipImageData() }
        } catch {
            if decodedFrames == 0 { partialFirstFrame = frame(metadata) }
            throw error
        }
        return frame(metadata)
    }

    /// The canvas as the current frame.
    private func frame(_ metadata: ImageMetadata) -> AnimationFrame {
        let image = Image(
            width: canvasWidth, height: canvasHeight, pixelFormat: .rgba8, pixels: canvas.pixels, metadata: metadata)
        return AnimationFrame(index: decodedFrames, image: image, duration: .milliseconds(control.delay * 10))
    }
}

/// The frame rows in the order they are stored: top to bottom, or the four interlace passes (every 8th row
/// from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
struct GIFRowOrder: Sequence, IteratorProtocol {
    private let height: Int
    private var passes: ArraySlice<(start: Int, step: Int)>
    private var row: Int

    /// The rows of a frame `height` rows tall.
    init(height: Int, interlaced: Bool) {
        self.height = height
        passes = interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        row = passes.first!.start
    }

    mutating func next() -> Int? {
        while let pass = passes.first {
            if row < height {
                defer { row += pass.step }
                return row
            }
            passes = passes.dropFirst()
            row = passes.first?.start ?? height
        }
        return nil
    }
}
