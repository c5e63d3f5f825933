import CPixpipeJXL

/// One libjxl decoder over bytes the caller keeps alive, with a thread pool, destroyed with the handle.
///
/// The whole input is given at once and closed, so `JXL_DEC_NEED_MORE_INPUT` always means the file is cut.
final class JXLDecoderHandle {
    let decoder: OpaquePointer
    /// The input, kept by the caller for the handle's life.
    private let input: UnsafeRawBufferPointer
    private let runner: UnsafeMutableRawPointer?
    /// The box buffer libjxl is writing into, while a box is being read.
    private var box: (type: String, buffer: UnsafeMutableRawBufferPointer, written: Int)?
    /// The `Exif` and `xml ` boxes read so far, by type.
    private(set) var boxes: [String: [UInt8]] = [:]

    /// A decoder of `bytes` subscribed to `events` (`JXL_DEC_*` bits); `keepsOrientation` leaves the pixels
    /// as stored (the orientation goes into the metadata instead), `threads` adds a pool for pixel decoding,
    /// `unpremultiplies` turns premultiplied alpha straight (off only in the test that proves it).
    init(
        bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus], keepsOrientation: Bool = true,
        threads: Bool = false, unpremultiplies: Bool = true
    ) throws(ImageDecodingError) {
        guard let decoder = pxp_JxlDecoderCreate() else {
            let reason = pxp_jxl_load_error().map { String(cString: $0) } ?? "libjxl could not make a decoder"
            throw .unsupportedFeature(format: .jxl, feature: reason)
        }
        self.decoder = decoder
        input = bytes
        // Two workers at most: pixel decoding parallelises by groups, and the machine is shared.
        runner = threads ? pxp_jxl_runner_create(2) : nil
        if let runner { _ = pxp_jxl_decoder_set_runner(decoder, runner) }
        let mask = events.reduce(0) { $0 | Int32(bitPattern: $1.rawValue) }
        _ = pxp_JxlDecoderSubscribeEvents(decoder, mask)
        _ = pxp_JxlDecoderSetKeepOrientation(decoder, keepsOrientation ? 1 : 0)
        _ = pxp_JxlDecoderSetUnpremultiplyAlpha(decoder, unpremultiplies ? 1 : 0)
        if events.contains(JXL_DEC_BOX) { _ = pxp_JxlDecoderSetDecompressBoxes(decoder, 1) }
        _ = pxp_JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        pxp_JxlDecoderCloseInput(decoder)
    }

    deinit {
        if let box { box.buffer.deallocate() }
        pxp_JxlDecoderDestroy(decoder)
        if let runner { pxp_jxl_runner_destroy(runner) }
    }

    /// The next event; errors and a cut input throw. Boxes (`Exif`, `xml `) are collected on the way.
    func next() throws(ImageDecodingError) -> JxlDecoderStatus {
        while true {
            let status = pxp_JxlDecoderProcessInput(decoder)
            if box != nil, status != JXL_DEC_BOX_NEED_MORE_OUTPUT { finishBox() }
            switch status {
            case JXL_DEC_ERROR:
                if Self.isCut(input) { throw .truncated(format: .jxl, reason: "the file ends inside the image") }
                throw .corrupt(format: .jxl, reason: "libjxl refused the codestream")
            case JXL_DEC_NEED_MORE_INPUT: throw .truncated(format: .jxl, reason: "the file ends inside the image")
            case JXL_DEC_BOX:
                startBox()
            case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                growBox()
            default:
                return status
            }
        }
    }

    /// Whether `bytes` end before the codestream does. libjxl 0.7 reports a cut frame as `JXL_DEC_ERROR`
    /// once the input is closed, so a refusal is decoded again with the input left open (into 8-bit RGB,
    /// which libjxl accepts for every image): libjxl then asks for more input where data is missing.
    static func isCut(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let probe = pxp_JxlDecoderCreate() else { return false }
        defer { pxp_JxlDecoderDestroy(probe) }
        let events = JXL_DEC_FULL_IMAGE.rawValue | JXL_DEC_FRAME.rawValue
        _ = pxp_JxlDecoderSubscribeEvents(probe, Int32(bitPattern: events))
        _ = pxp_JxlDecoderSetInput(probe, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var scratch: UnsafeMutableRawPointer?
        defer { scratch?.deallocate() }
        while true {
            switch pxp_JxlDecoderProcessInput(probe) {
            case JXL_DEC_NEED_MORE_INPUT: return true
            case JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE: continue
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                guard pxp_JxlDecoderImageOutBufferSize(probe, &format, &size) == JXL_DEC_SUCCESS else { return false }
                if scratch == nil { scratch = .allocate(byteCount: max(size, 1), alignment: 16) }
                _ = pxp_JxlDecoderSetImageOutBuffer(probe, &format, scratch, size)
            default: return false
            }
        }
    }

    /// The basic info (valid from `JXL_DEC_BASIC_INFO` on).
    func basicInfo() throws(ImageDecodingError) -> JxlBasicInfo {
        var info = JxlBasicInfo()
        guard pxp_JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw .corrupt(format: .jxl, reason: "no basic info")
        }
        return info
    }

    /// The ICC profile of the decoded pixels' colour space (valid from `JXL_DEC_COLOR_ENCODING` on); libjxl
    /// writes one for an encoded colour space too.
    func iccProfile() -> [UInt8]? {
        var size = 0
        guard pxp_JxlDecoderGetICCProfileSize(decoder, &size) == JXL_DEC_SUCCESS, size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard pxp_JxlDecoderGetColorAsICCProfile(decoder, &profile, size) == JXL_DEC_SUCCESS else { return nil }
        return profile
    }

    /// The current frame's header (valid from `JXL_DEC_FRAME` on).
    func frameHeader() throws(ImageDecodingError) -> JxlFrameHeader {
        var header = JxlFrameHeader()
        guard pxp_JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
            throw .corrupt(format: .jxl, reason: "no frame header")
        }
        return header
    }

    /// Boxes are read only when small: metadata, not payloads.
    private static let boxLimit = 16 << 20

    private func startBox() {
        var type: (CChar, CChar, CChar, CChar) = (0, 0, 0, 0)
        let name = withUnsafeMutableBytes(of: &type) { raw -> String in
            _ = pxp_JxlDecoderGetBoxType(decoder, raw.baseAddress!.assumingMemoryBound(to: CChar.self), 1)
            return String(decoding: raw.bindMemory(to: UInt8.self), as: UTF8.self)
        }
        guard name == "Exif" || name == "xml " else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        _ = pxp_JxlDecoderSetBoxBuffer(decoder, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count)
        box = (name, buffer, 0)
    }

    private func growBox() {
        guard let current = box else { return }
        let remaining = pxp_JxlDecoderReleaseBoxBuffer(decoder)
        let written = current.written + (current.buffer.count - current.written - remaining)
        guard current.buffer.count * 2 <= Self.boxLimit else {
            current.buffer.deallocate()
            box = nil
            return
        }
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: current.buffer.count * 2, alignment: 1)
        bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: current.buffer[..<written]))
        current.buffer.deallocate()
        _ = pxp_JxlDecoderSetBoxBuffer(
            decoder, bigger.baseAddress!.assumingMemoryBound(to: UInt8.self) + written, bigger.count - written)
        box = (current.type, bigger, written)
    }

    private func finishBox() {
        guard let current = box else { return }
        let remaining = pxp_JxlDecoderReleaseBoxBuffer(decoder)
        let written = current.written + (current.buffer.count - current.written - remaining)
        boxes[current.type] = Array(current.buffer[..<written])
        current.buffer.deallocate()
        box = nil
    }
}
