import CPixpipeImage

/// libjpeg's decompressor over bytes in memory, one step at a time, so callers can pull rows.
///
/// The steps run in order: `init` reads the header, then ``configure(scaleNumerator:space:)``,
/// ``start()``, ``readRows(into:stride:count:)`` until every row is read, and ``finish()``.
/// A step that fails leaves the reader unusable. The bytes given to `init` must stay valid
/// (and unchanged) for the reader's whole life: libjpeg reads them in place.
final class JPEGReader {
    /// The decoder handle; owned, freed in `deinit`.
    private let handle: OpaquePointer
    /// What the header says.
    let header: pxp_jpeg_header

    /// The pixel limit libjpeg's own memory is derived from, reported when that memory runs out.
    private let pixelLimit: Int?

    /// Opens `bytes` and reads the header.
    ///
    /// libjpeg's own allocations (a progressive file keeps every DCT coefficient of the full-size
    /// image, whatever the output scale) are capped at 8 bytes per pixel of `pixelLimit` plus 64 MiB.
    convenience init(bytes: UnsafeRawBufferPointer, pixelLimit: Int?) throws(ImageDecodingError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .truncated(format: .jpeg, reason: "empty input")
        }
        guard let handle = pxp_jpeg_decoder_create(base.assumingMemoryBound(to: UInt8.self), bytes.count) else {
            throw .corrupt(format: .jpeg, reason: "out of memory creating the decoder")
        }
        try self.init(handle: handle, pixelLimit: pixelLimit)
    }

    /// Opens the file `fileDescriptor` (read from its current offset, in small pieces, never whole) and
    /// reads the header. The caller closes the descriptor after the reader is gone.
    convenience init(fileDescriptor: Int32, pixelLimit: Int?) throws(ImageDecodingError) {
        guard let handle = pxp_jpeg_decoder_create_fd(fileDescriptor) else {
            throw .corrupt(format: .jpeg, reason: "out of memory creating the decoder")
        }
        try self.init(handle: handle, pixelLimit: pixelLimit)
    }

    /// Takes ownership of `handle` and reads the header.
    private init(handle: OpaquePointer, pixelLimit: Int?) throws(ImageDecodingError) {
        self.handle = handle
        self.pixelLimit = pixelLimit
        if let pixelLimit {
            let slack = 64 << 20
            let (perPixel, overflow) = max(0, pixelLimit).multipliedReportingOverflow(by: 8)
            pxp_jpeg_decoder_set_memory_limit(
                handle, overflow || perPixel > Int.max - slack ? Int.max : perPixel + slack)
        }
        var header = pxp_jpeg_header()
        let status = pxp_jpeg_decoder_read_header(handle, &header)
        self.header = header
        if status != PXP_JPEG_OK { throw failure() }
    }

    deinit { pxp_jpeg_decoder_destroy(handle) }

    /// The TIFF block of the first EXIF APP1 marker, if any.
    func exifBlock() -> [UInt8]? {
        let prefix: [UInt8] = Array("Exif".utf8) + [0, 0]
        var length = 0
        guard let payload = pxp_jpeg_decoder_find_app1(handle, prefix, prefix.count, &length) else { return nil }
        return EXIFReader.tiffBlock(app1Payload: UnsafeBufferPointer(start: payload, count: length))
    }

    /// The ICC profile, once read (`.some(nil)` when absent or malformed).
    private var readProfile: [UInt8]??

    /// The ICC profile reassembled from APP2 markers, if present and well-formed. Read once: libjpeg warns
    /// about a malformed profile each time it is read, and one file should give one warning.
    func iccProfile() -> [UInt8]? {
        if let readProfile { return readProfile }
        var length = 0
        var profile: [UInt8]?
        if let bytes = pxp_jpeg_decoder_copy_icc_profile(handle, &length) {
            profile = Array(UnsafeBufferPointer(start: bytes, count: length))
            pxp_jpeg_free(bytes)
        }
        readProfile = .some(profile)
        return profile
    }

    /// Sets the scale (`scaleNumerator`/8) and output space; returns the output size.
    func configure(scaleNumerator: Int, space: JPEGColorSpace) throws(ImageDecodingError) -> (width: Int, height: Int) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard pxp_jpeg_decoder_configure(handle, Int32(scaleNumerator), space.code, &width, &height) == PXP_JPEG_OK
        else { throw failure() }
        return (Int(width), Int(height))
    }

    /// Like ``configure(scaleNumerator:space:)`` for a read that keeps no pixels: a YCbCr file is read as
    /// luma only where libjpeg would accept its colour decode, so ``start()`` may report one sample per
    /// pixel instead of three. Read the rows with ``discardRows(into:stride:count:)``.
    func configureForVerification(scaleNumerator: Int, space: JPEGColorSpace) throws(ImageDecodingError) -> (
        width: Int, height: Int
    ) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard
            pxp_jpeg_decoder_configure_verification(handle, Int32(scaleNumerator), space.code, &width, &height)
                == PXP_JPEG_OK
        else { throw failure() }
        return (Int(width), Int(height))
    }

    /// Decodes up to `count` rows and drops them; returns how many. Rows are entropy-decoded whether or not
    /// they reach `scratch` (room for `count` rows, `stride` bytes apart), which only some of them do.
    func discardRows(into scratch: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(ImageDecodingError)
        -> Int
    {
        precondition(scratch.count >= stride * count, "row buffer too small")
        guard let base = scratch.baseAddress else { return 0 }
        var done: UInt32 = 0
        let status = pxp_jpeg_decoder_discard_rows(
            handle, base.assumingMemoryBound(to: UInt8.self), stride, UInt32(count), &done)
        guard status == PXP_JPEG_OK else { throw failure() }
        return Int(done)
    }

    /// How a decode at the configured scale makes pixels of one component's blocks.
    struct ComponentBlocks: Sendable, Hashable {
        /// The side of the block the scaled inverse DCT makes of each 8x8 block of coefficients (1: only the
        /// DC coefficient is used).
        var side: Int
        /// Whether the component is the luma of a YCbCr, YCCK or grayscale file.
        var isLuma: Bool
    }

    /// After ``configure(scaleNumerator:space:)``: each component's blocks by its identifier, as libjpeg
    /// chose for that scale. Empty when two components share an identifier, since scans name components by
    /// identifier.
    var componentBlocks: [UInt8: ComponentBlocks] {
        var ids = [UInt8](repeating: 0, count: 16)
        var sides = [UInt8](repeating: 0, count: 16)
        var luma = [UInt8](repeating: 0, count: 16)
        let count = ids.withUnsafeMutableBufferPointer { idBuffer in
            sides.withUnsafeMutableBufferPointer { sideBuffer in
                luma.withUnsafeMutableBufferPointer { lumaBuffer in
                    pxp_jpeg_decoder_component_blocks(
                        handle, idBuffer.baseAddress, sideBuffer.baseAddress, lumaBuffer.baseAddress,
                        Int32(idBuffer.count))
                }
            }
        }
        var result: [UInt8: ComponentBlocks] = [:]
        for index in 0..<Int(count) {
            let blocks = ComponentBlocks(side: Int(sides[index]), isLuma: luma[index] != 0)
            guard result.updateValue(blocks, forKey: ids[index]) == nil else { return [:] }
        }
        return result
    }

    /// Turns off libjpeg's block smoothing, which would otherwise guess AC coefficients that no scan sent;
    /// before ``start()``.
    func disableBlockSmoothing() { pxp_jpeg_decoder_disable_block_smoothing(handle) }

    /// Starts decompression and returns the samples per output pixel.
    func start() throws(ImageDecodingError) -> Int {
        var components: Int32 = 0
        guard pxp_jpeg_decoder_start(handle, &components) == PXP_JPEG_OK else { throw failure() }
        return Int(components)
    }

    /// Reads up to `count` rows into `buffer`, `stride` bytes apart; returns how many were read.
    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(ImageDecodingError)
        -> Int
    {
        precondition(buffer.count >= stride * count, "row buffer too small")
        guard let base = buffer.baseAddress else { return 0 }
        var read: UInt32 = 0
        let status = pxp_jpeg_decoder_read_rows(
            handle, base.assumingMemoryBound(to: UInt8.self), stride, UInt32(count), &read)
        guard status == PXP_JPEG_OK else { throw failure() }
        return Int(read)
    }

    /// The index of the next row ``readRows(into:stride:count:)`` produces.
    var nextRow: Int { Int(pxp_jpeg_decoder_next_row(handle)) }

    /// Reads to the end of the image; stops early without error when rows were left unread.
    func finish() throws(ImageDecodingError) {
        guard pxp_jpeg_decoder_finish(handle) == PXP_JPEG_OK else { throw failure() }
    }

    /// Every warning libjpeg emitted so far, classified by ``JPEGWarningTable``: the first few with their
    /// messages, then one per code and place for those past them, so none goes unseen.
    var warnings: [DecodeWarning] {
        let count = Int(pxp_jpeg_decoder_warning_count(handle))
        var warnings: [DecodeWarning] = []
        var kept: [JPEGWarningTable.Key: Int] = [:]
        for index in 0..<min(count, Int(PXP_JPEG_MAX_WARNINGS)) {
            let key = JPEGWarningTable.Key(
                code: pxp_jpeg_decoder_warning_code(handle, Int32(index)),
                place: pxp_jpeg_decoder_warning_place(handle, Int32(index)))
            let message = String(cString: pxp_jpeg_decoder_warning_message(handle, Int32(index)))
            warnings.append(JPEGWarningTable.rule(code: key.code, place: key.place).warning(message))
            kept[key, default: 0] += 1
        }
        guard count > Int(PXP_JPEG_MAX_WARNINGS) else { return warnings }
        for code in 0..<Int32(PXP_JPEG_WARNING_CODES) {
            for place in 0..<Int32(PXP_JPEG_PLACES) {
                let more =
                    Int(pxp_jpeg_decoder_warning_tally(handle, code, place))
                    - kept[JPEGWarningTable.Key(code: code, place: place), default: 0]
                guard more > 0 else { continue }
                let rule = JPEGWarningTable.rule(code: code, place: place)
                warnings.append(rule.warning("\(more) more warnings (\(rule.code))"))
            }
        }
        return warnings
    }

    /// The typed error for the step that just failed.
    private func failure() -> ImageDecodingError {
        let message = String(cString: pxp_jpeg_decoder_error_message(handle))
        switch Int(pxp_jpeg_decoder_error_kind(handle)) {
        case Int(PXP_JPEG_ERROR_UNSUPPORTED):
            return .unsupportedFeature(format: .jpeg, feature: message)
        case Int(PXP_JPEG_ERROR_MEMORY):
            return .tooLarge(width: Int(header.width), height: Int(header.height), limit: pixelLimit ?? 0)
        default:
            // Running out of data shows first as a warning, then as the error it leads to.
            if let truncation = warnings.first(where: { $0.kind == .truncated }) {
                return .truncated(format: .jpeg, reason: "\(truncation.message): \(message)")
            }
            return .corrupt(format: .jpeg, reason: message)
        }
    }
}
