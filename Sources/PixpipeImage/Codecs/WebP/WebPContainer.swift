internal import CLibWebP

/// What a WebP file's container says, read through libwebp's demuxer without decoding pixels: the canvas,
/// alpha, animation (frames, loop count, durations) and the ICC and EXIF chunks.
struct WebPContainer {
    /// Canvas width.
    let width: Int
    /// Canvas height.
    let height: Int
    /// Whether any frame carries alpha.
    let hasAlpha: Bool
    /// Whether the file is an animation (`ANIM`/`ANMF` chunks).
    let isAnimated: Bool
    /// Whether the (first) image is lossless (VP8L).
    let isLossless: Bool
    /// How many frames the file holds.
    let frameCount: Int
    /// How many times an animation plays; 0 means forever.
    let loopCount: Int
    /// The sum of the frames' durations.
    let duration: Duration
    /// The `ICCP` chunk.
    let iccProfile: [UInt8]?
    /// The `EXIF` chunk's TIFF block (an `Exif\0\0` prefix some writers add is removed).
    let exif: [UInt8]?
    /// Whether the demuxer read the whole RIFF payload the header declares.
    let isComplete: Bool
    /// Anomalies in the container that cost no pixel (see ``WebPCodec``'s table).
    let warnings: [DecodeWarning]

    /// Reads the container of `bytes`; refuses truncated or damaged headers with typed errors.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        guard let base = bytes.baseAddress, bytes.count >= 12 else {
            throw .truncated(format: .webp, reason: "shorter than a RIFF header")
        }
        var warnings: [DecodeWarning] = []
        // RIFF size = the file's length minus the 8-byte RIFF header; more data after it is ignored by libwebp.
        let declared = Int(bytes.load(fromByteOffset: 4, as: UInt32.self).littleEndian)
        if declared + 8 < bytes.count {
            warnings.append(
                WebPWarningTable.trailingData.warning("\(bytes.count - declared - 8) bytes after the RIFF payload"))
        }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demux = WebPDemuxPartial(&data, &state) else {
            throw Self.headerError(bytes)
        }
        defer { WebPDemuxDelete(demux) }
        // A partial parse that got past the header is a file cut short (or one whose RIFF size is too
        // large): the header facts hold, and the decode decides what the missing bytes cost.
        guard state == WEBP_DEMUX_DONE || state == WEBP_DEMUX_PARSED_HEADER else {
            throw state == WEBP_DEMUX_PARSING_HEADER
                ? .truncated(format: .webp, reason: "the file ends inside its header")
                : .corrupt(format: .webp, reason: "invalid RIFF container")
        }
        isComplete = state == WEBP_DEMUX_DONE
        width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        isAnimated = flags & UInt32(ANIMATION_FLAG.rawValue) != 0
        frameCount = max(1, Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)))
        loopCount = isAnimated ? Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)) : 0
        var hasAlpha = flags & UInt32(ALPHA_FLAG.rawValue) != 0
        var isLossless = false
        var total = 0
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
            repeat {
                total += Int(iterator.duration)
                hasAlpha = hasAlpha || iterator.has_alpha != 0
                if iterator.frame_num == 1 { isLossless = Self.isLossless(iterator.fragment) }
            } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        self.hasAlpha = hasAlpha
        self.isLossless = isLossless
        duration = .milliseconds(total)
        iccProfile = Self.chunk("ICCP", in: demux)
        exif = Self.chunk("EXIF", in: demux).map { Self.tiffBlock($0) }
        self.warnings = warnings
    }

    /// The payload of the first chunk with `fourCC`, or `nil`.
    private static func chunk(_ fourCC: String, in demux: OpaquePointer) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: iterator.chunk.size))
    }

    /// The TIFF block of an EXIF chunk: some writers keep JPEG's `Exif\0\0` prefix, which is dropped.
    private static func tiffBlock(_ payload: [UInt8]) -> [UInt8] {
        EXIFReader.tiffBlock(app1Payload: payload) ?? payload
    }

    /// Whether a frame's bitstream is VP8L (its first byte is the lossless signature 0x2F).
    private static func isLossless(_ fragment: WebPData) -> Bool {
        guard let bytes = fragment.bytes, fragment.size > 0 else { return false }
        return bytes[0] == 0x2F
    }

    /// Why the demuxer refused a header: too short for one is truncation, anything else damage.
    private static func headerError(_ bytes: UnsafeRawBufferPointer) -> ImageDecodingError {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        return WebPStatus.error(status, context: "cannot read the WebP header")
    }
}
