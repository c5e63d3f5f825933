/// What a walk over a GIF's records finds without decoding any LZW data: the canvas, the frame count, the
/// loop count, the delays and how the file ends.
///
/// Image data is skipped block by block (`DGifGetCode`, `DGifGetCodeNext`), so the walk costs a pass over
/// the bytes and holds no pixels: it is what every limit is checked against before a pixel buffer exists.
struct GIFLayout {
    /// How the record sequence ends.
    enum Ending: Equatable {
        /// With the trailer byte (0x3B).
        case trailer
        /// At a record boundary with no trailer: every frame read is whole (benign).
        case missingTrailer
        /// With an error: the data is cut or damaged after `completeFrames` whole frames.
        case failed(ImageDecodingError)
    }

    /// The canvas (logical screen) width.
    var width: Int
    /// The canvas height.
    var height: Int
    /// The logical screen's background colour index (into the global colour table).
    var backgroundIndex: Int
    /// How many image descriptors the walk read.
    var frameCount = 0
    /// How many times the animation plays, 0 for forever (see ``GIFCodec`` on the NETSCAPE2.0 count).
    var loopCount = 1
    /// The sum of every frame's delay, in hundredths of a second, as stored.
    var totalDelay = 0
    /// Whether the first frame is interlaced.
    var firstFrameInterlaced = false
    /// How the records end.
    var ending = Ending.trailer

    /// Walks `input` from its header to its end, or until `stopAfter(canvasWidth, canvasHeight)` frames
    /// have been counted (a count the caller's limits refuse, so a huge file costs no more than that).
    ///
    /// Throws only when the header itself cannot be read; damage or truncation later is ``ending``.
    init(_ input: GIFInput, stopAfter: (Int, Int) -> Int? = { _, _ in nil }) throws(ImageDecodingError) {
        let handle = try GIFHandle(input)
        width = handle.canvasWidth
        height = handle.canvasHeight
        backgroundIndex = handle.backgroundIndex
        do {
            try walk(handle, stopAfter: stopAfter(width, height))
        } catch {
            ending = .failed(error)
        }
    }

    private mutating func walk(_ handle: GIFHandle, stopAfter: Int?) throws(ImageDecodingError) {
        var sawLoopCount = false
        while true {
            switch try handle.nextRecord() {
            case .trailer:
                ending = .trailer
                return
            case .endOfData:
                ending = .missingTrailer
                return
            case .extension:
                let (label, blocks) = try handle.readExtension()
                if label == GIFFrameControl.label, let block = blocks.first {
                    totalDelay += GIFFrameControl(block: block).delay
                } else if !sawLoopCount, let plays = Self.plays(label: label, blocks: blocks) {
                    loopCount = plays
                    sawLoopCount = true
                }
            case .image:
                let descriptor = try handle.readDescriptor()
                if frameCount == 0 { firstFrameInterlaced = descriptor.isInterlaced }
                frameCount += 1
                if let stopAfter, frameCount >= stopAfter { return }
                try handle.skipImageData()
            }
        }
    }

    /// The play count a NETSCAPE2.0 (or ANIMEXTS1.0) application extension gives, or `nil` for any other
    /// extension.
    ///
    /// The stored value counts repeats after the first play, as browsers read it: 0 is forever (0 here
    /// too), n > 0 plays n + 1 times.
    static func plays(label: Int, blocks: [[UInt8]]) -> Int? {
        guard label == 0xFF, blocks.count == 2, blocks[0] == netscape || blocks[0] == animexts else { return nil }
        let data = blocks[1]
        guard data.count >= 3, data[0] == 0x01 else { return nil }
        let repeats = Int(data[1]) | Int(data[2]) << 8
        return repeats == 0 ? 0 : repeats + 1
    }

    private static let netscape = Array("NETSCAPE2.0".utf8)
    private static let animexts = Array("ANIMEXTS1.0".utf8)

    /// The warning a decode records for how the file ends, whatever the strictness.
    var endingWarning: DecodeWarning? {
        switch ending {
        case .trailer: nil
        case .missingTrailer:
            GIFWarningTable.missingTrailer.warning("the file ends without its trailer after its last whole frame")
        case .failed(let error): GIFWarningTable.warning(for: error)
        }
    }
}
