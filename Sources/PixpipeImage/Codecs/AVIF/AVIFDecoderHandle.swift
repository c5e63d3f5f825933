import CPixpipeAVIF

/// One libavif decoder over bytes that outlive it, parsed with the package's limits and strictness.
///
/// Parsing reads the boxes only (no AV1 data is decoded and no pixel buffer exists), so every limit is
/// checked here, from the header, before ``nextImage()`` allocates anything. A file that libavif's strict
/// checks refuse is parsed again with those checks off, and ``warnings`` says why (see ``AVIFCodec``).
final class AVIFDecoderHandle {
    /// The limits libavif itself is given, besides the package's own checks.
    struct Limits {
        /// The most pixels of one image (libavif's `imageSizeLimit`, also handed to dav1d); `nil` for none.
        var pixelLimit: Int?
        /// The most images of a sequence (libavif's `imageCountLimit`); `nil` for libavif's default.
        var frameLimit: Int?

        /// libavif's own limits only (16384 x 16384 pixels, 32,768 a side, 2,592,000 images): for reading a
        /// header, where parsing allocates nothing for pixels and a sample table of at most that many images.
        static let lifted = Limits(pixelLimit: nil, frameLimit: nil)
    }

    private(set) var decoder: UnsafeMutablePointer<avifDecoder>
    private let bytes: UnsafeRawBufferPointer
    private let limits: Limits
    /// Whether the last top-level box runs past the end: every refusal is then a truncation.
    private let isCut: Bool
    /// The reader over ``bytes`` that claims the declared length (lenient mode with a cut file), or `nil`
    /// for libavif's own memory reader.
    private let cutReader: AVIFCutReader?
    /// Whether libavif's strict checks are on (they are turned off after a strict-only refusal).
    private var isStrict = true
    /// Anomalies met so far (a strict-only refusal, a top-level box cut short after the image).
    private(set) var warnings: [DecodeWarning] = []

    /// Parses `bytes`, which must stay valid while the handle lives. Throws the typed error of
    /// ``AVIFFailure`` when libavif refuses the file, or ``ImageDecodingError/tooLarge(width:height:limit:)``
    /// when libavif's own size limit refused it.
    ///
    /// With `readsPastCut` (lenient mode), a file whose last box was cut is read as if it had its declared
    /// length, so libavif parses it and refuses only the frames whose samples are missing.
    init(bytes: UnsafeRawBufferPointer, limits: Limits, readsPastCut: Bool = false) throws(ImageDecodingError) {
        self.bytes = bytes
        self.limits = limits
        isCut = AVIFBoxes.lastBoxIsCut(bytes)
        cutReader = readsPastCut && isCut ? AVIFCutReader(bytes) : nil
        decoder = try Self.makeDecoder(limits: limits, strict: true)
        // A throw from here on runs deinit, which destroys the decoder.
        try parse()
        if isCut {
            // libavif read the image from complete boxes: only something after it was cut.
            warnings.append(AVIFWarningTable.lastBoxCut.warning("the last top-level box ends past the end of the file"))
        }
    }

    deinit { pxp_avifDecoderDestroy(decoder) }

    /// The image libavif describes: the header after parsing, the decoded planes after ``nextImage()``.
    var image: UnsafeMutablePointer<avifImage> { decoder.pointee.image }
    /// Width of the image (of every frame of a sequence).
    var width: Int { Int(image.pointee.width) }
    /// Height of the image.
    var height: Int { Int(image.pointee.height) }
    /// Images in the file: 1 for a still image, the frame count of a sequence.
    var imageCount: Int { Int(decoder.pointee.imageCount) }
    /// Whether the file has an alpha item or track.
    var hasAlpha: Bool { decoder.pointee.alphaPresent != 0 }
    /// The sequence's total duration from libavif's timing, `nil` when it gives none.
    var duration: Duration? {
        let seconds = decoder.pointee.duration
        return seconds.isFinite && seconds > 0 ? .seconds(seconds) : nil
    }

    /// Decodes the next image into ``image``'s planes and returns how long it is shown. Throws the mapped
    /// libavif error; a strict-only refusal here reopens the file non-strict and decodes the same image.
    func nextImage() throws(ImageDecodingError) -> Duration {
        var result = pxp_avifDecoderNextImage(decoder)
        if result != AVIF_RESULT_OK, isStrict, AVIFFailure.isStrictOnly(diagnostics) {
            let index = decoder.pointee.imageIndex + 1
            try reopenNonStrict(reason: diagnostics)
            result = pxp_avifDecoderNthImage(decoder, UInt32(max(index, 0)))
        }
        guard result == AVIF_RESULT_OK else { throw failure(result) }
        let seconds = decoder.pointee.imageTiming.duration
        return seconds.isFinite && seconds > 0 ? .seconds(seconds) : .zero
    }

    /// The typed error for `result`, with libavif's diagnostics.
    func failure(_ result: avifResult) -> ImageDecodingError {
        AVIFFailure.error(result, diagnostics: diagnostics, truncated: isCut)
    }

    /// libavif's message for the last failure (empty when it wrote none).
    var diagnostics: String {
        withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private func parse() throws(ImageDecodingError) {
        let result = try setMemoryAndParse()
        if result == AVIF_RESULT_OK { return }
        let message = diagnostics
        if isStrict, AVIFFailure.isStrictOnly(message) {
            try reopenNonStrict(reason: message)
            return
        }
        if let (width, height) = AVIFFailure.dimensionsTooLarge(message) {
            // libavif names the size it refused under our limit (or its own 16384 x 16384 and 32,768 a side).
            throw .tooLarge(
                width: width, height: height, limit: min(limits.pixelLimit ?? Self.maxSizeLimit, Self.maxSizeLimit))
        }
        if limits.frameLimit != nil, AVIFFailure.isCountLimit(message) {
            // libavif does not say the count; the sample-size box does (parsing again without the limit
            // would let a file declaring billions of samples allocate a table for each).
            let limit = limits.frameLimit ?? 0
            throw .tooManyFrames(count: max(AVIFBoxes.declaredSampleCount(bytes) ?? 0, limit + 1), limit: limit)
        }
        throw failure(result)
    }

    private func setMemoryAndParse() throws(ImageDecodingError) -> avifResult {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw .truncated(format: .avif, reason: "empty input")
        }
        if let cutReader {
            pxp_avifDecoderSetIO(decoder, cutReader.io)
        } else {
            let set = pxp_avifDecoderSetIOMemory(decoder, base, bytes.count)
            guard set == AVIF_RESULT_OK else { return set }
        }
        return pxp_avifDecoderParse(decoder)
    }

    private func reopenNonStrict(reason: String) throws(ImageDecodingError) {
        let relaxed = try Self.makeDecoder(limits: limits, strict: false)
        pxp_avifDecoderDestroy(decoder)
        decoder = relaxed
        isStrict = false
        warnings.append(
            AVIFWarningTable.strictOnly.warning("\(reason) (decoded with libavif's strict checks off)"))
        let result = try setMemoryAndParse()
        guard result == AVIF_RESULT_OK else { throw failure(result) }
    }

    /// libavif's largest accepted `imageSizeLimit`, its default.
    private static let maxSizeLimit = 16384 * 16384

    private static func makeDecoder(limits: Limits, strict: Bool) throws(ImageDecodingError)
        -> UnsafeMutablePointer<avifDecoder>
    {
        guard let decoder = pxp_avifDecoderCreate() else {
            // Loaded on first use (Sources/CPixpipe/AVIF): a missing library fails here, not at start-up.
            if let reason = pxp_avif_load_error() {
                throw .unsupportedFeature(format: .avif, feature: String(cString: reason))
            }
            throw .corrupt(format: .avif, reason: "libavif could not create a decoder")
        }
        decoder.pointee.maxThreads = 1
        decoder.pointee.ignoreXMP = 1
        decoder.pointee.strictFlags = strict ? AVIF_STRICT_ENABLED.rawValue : AVIF_STRICT_DISABLED.rawValue
        // libavif refuses a size limit of 0 or above its default (16384 x 16384), which it keeps without ours.
        decoder.pointee.imageSizeLimit = UInt32(clamping: min(max(limits.pixelLimit ?? maxSizeLimit, 1), maxSizeLimit))
        // A side can be no longer than the pixel limit (nor than libavif's 32,768); without ours, none (0).
        let dimensionLimit = Int(decoder.pointee.imageDimensionLimit)
        decoder.pointee.imageDimensionLimit = UInt32(limits.pixelLimit.map { min(max($0, 1), dimensionLimit) } ?? 0)
        // Without our frame limit libavif keeps its own (0 would let a file declaring billions of images
        // make it allocate a sample table for each).
        if let frameLimit = limits.frameLimit { decoder.pointee.imageCountLimit = UInt32(clamping: max(frameLimit, 1)) }
        return decoder
    }
}
