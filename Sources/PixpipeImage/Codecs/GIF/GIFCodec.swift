import Foundation

extension ImageFormat {
    /// Graphics Interchange Format (GIF87a and GIF89a), still or animated.
    public static let gif = ImageFormat(rawValue: "gif")
}

/// GIF through giflib (decode only): GIF87a and GIF89a, global and local colour tables, transparency,
/// interlacing, every disposal method, frames partly outside the canvas (clipped), the NETSCAPE2.0 loop count
/// and per-frame delays. Frames are composited on the full canvas as browsers show them, as RGBA8.
///
/// Every entry point first walks the records without decoding LZW data (``GIFLayout``), so the canvas is
/// checked against ``DecodeOptions/pixelLimit``, the frame count against ``DecodeOptions/frameLimit`` and
/// frames x canvas against ``DecodeOptions/animationPixelLimit`` before any pixel buffer exists. The walk
/// stops one frame past what the limits allow (a refusal then reports that many frames, a lower bound), so
/// a file of millions of frames is refused as fast as one just over the limit; ``Image/info(data:options:)``
/// counts every frame.
/// ``Image/init(data:options:)`` decodes the first frame only; ``AnimationReader`` decodes one frame at a time;
/// ``Image/verify(data:options:)`` decodes every frame, keeping none.
///
/// Semantics chosen where browsers and the format differ:
/// - Loop count: ``AnimationInfo/loopCount`` is how many times the animation plays, 0 for forever. A file
///   without a NETSCAPE2.0 (or ANIMEXTS1.0) extension plays once (1); the extension's stored value counts
///   repeats after the first play, as browsers read it, so a stored 0 is forever (0) and n > 0 is n + 1.
/// - Delays: each frame's duration is the file's delay (hundredths of a second x 10 ms), as stored. Browsers
///   show delays of 0 and 10 ms as 100 ms; a player that wants that should apply it itself.
/// - Disposal "background" clears the frame's rectangle to transparent (browsers ignore the background
///   colour); "previous" restores the canvas as it was before the frame; values 0, 1 and 4-7 keep the frame.
/// - Palette indices past the end of a short colour table draw opaque black.
/// - Fully transparent pixels keep colour channels as the GIF suite's reference renderings have them: the
///   canvas starts as the background colour with alpha 0, "background" disposal zeroes alpha only, and a
///   transparent index over nothing visible takes that entry's colour. No visible pixel depends on this.
/// - `metadata.sourceBitDepth` is 8 (colour table entries are 8 bits a channel); GIF has no ICC profile,
///   EXIF or orientation here (application extensions other than the loop count are skipped).
///
/// What giflib reports, and what each mode does with it (by giflib's `D_GIF_ERR_*` codes, never its text):
///
/// | giflib reports | kind | strict | lenient | why |
/// |---|---|---|---|---|
/// | a short read (`D_GIF_ERR_READ_FAILED` after the input ran out) inside a frame or its records | lost pixels | `.truncated` | the frames complete so far, the last with a warning | the rest of the picture is missing |
/// | the same inside the first frame | lost pixels | `.truncated` | the rows drawn so far, with a warning | as PNG and JPEG show a cut image |
/// | no byte where the next record starts (the trailer 0x3B is missing) | benign | decoded, warning | decoded, warning | every frame read is whole |
/// | `D_GIF_ERR_IMAGE_DEFECT`, `D_GIF_ERR_EOF_TOO_SOON`, `D_GIF_ERR_DATA_TOO_BIG` (LZW damage) | lost pixels | `.corrupt` | as truncation | the frame's pixels are wrong or missing |
/// | `D_GIF_ERR_WRONG_RECORD`, an LZW code size over 8 (`D_GIF_ERR_READ_FAILED` with data left), a frame with no colour table, a 0-pixel screen | damage | `.corrupt` | as truncation | nothing after it can be trusted |
///
/// LZW data has no checksum, and giflib 5.2 decodes a code that names no table entry yet to some pixel
/// without an error: such damage gives wrong pixels in both modes, as it does in browsers.
///
/// ``Image/init(data:options:)`` sees truncation and record damage anywhere in the file through the walk,
/// but LZW damage only in the first frame; ``Image/verify(data:options:)`` decodes every frame's data.
/// Warnings are ``DecodeWarning``s in `metadata.warnings`; ``Image/info(data:options:)`` reports the ones the
/// walk finds. A benign warning is in every frame's metadata.
struct GIFCodec: ImageCodec {
    var format: ImageFormat { .gif }
    var fileExtensions: [String] { ["gif"] }
    var mediaTypes: [String] { ["image/gif"] }
    var decodesAnimation: Bool { true }
    var warningRules: [WarningRule] { GIFWarningTable.rows }

    func matches(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8))
    }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let layout = try GIFLayout(GIFInput(borrowing: bytes))
        var metadata = ImageMetadata(
            sourceFormat: .gif, sourceBitDepth: 8, isInterlaced: layout.firstFrameInterlaced)
        if let warning = layout.endingWarning { metadata.warnings.append(warning) }
        let animation =
            layout.frameCount > 1
            ? AnimationInfo(
                frameCount: layout.frameCount, loopCount: layout.loopCount,
                duration: .milliseconds(layout.totalDelay * 10))
            : nil
        return ImageInfo(
            format: .gif, width: layout.width, height: layout.height, pixelFormat: .rgba8, metadata: metadata,
            animation: animation)
    }

    /// The first frame. The walk's truncation or damage anywhere throws in strict mode and is a warning in
    /// lenient mode.
    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let input = GIFInput(borrowing: bytes)
        let layout = try checkedLayout(input, options: options)
        let decoder = try GIFFrameDecoder(input, layout: layout, strictness: options.strictness)
        let first =
            options.strictness == .strict ? try decoder.decodeFrame() : try decoder.firstFrameShowingDamage()
        // The decoder throws rather than end before a first frame, so there is one.
        guard var image = first?.image else { throw .corrupt(format: .gif, reason: "the file holds no image") }
        if case .failed = layout.ending, let warning = layout.endingWarning, !image.metadata.warnings.contains(warning)
        {
            image.metadata.warnings.append(warning)
        }
        return image
    }

    /// Decodes every frame, keeping none, so damage in any frame's LZW data is found.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        let input = GIFInput(borrowing: bytes)
        let layout = try checkedLayout(input, options: options)
        let decoder = try GIFFrameDecoder(input, layout: layout, strictness: options.strictness)
        var warnings: [DecodeWarning] = []
        while let frame = try decoder.nextFrame() { warnings = frame.image.metadata.warnings }
        var info = try info(bytes)
        info.metadata.warnings = warnings
        return info
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        let input = GIFInput(copying: data)
        let layout = try checkedLayout(input, options: options)
        return try GIFFrameDecoder(input, layout: layout, strictness: options.strictness)
    }

    /// The walk, with every limit checked against it; strict mode refuses truncation or damage it found.
    ///
    /// The walk stops one frame past what the frame limit or the animation pixel limit allows, so the time a
    /// huge file costs is bounded by the limits, not the file; the refusal then names that many frames.
    private func checkedLayout(_ input: GIFInput, options: DecodeOptions) throws(ImageDecodingError) -> GIFLayout {
        let layout = try GIFLayout(input) { width, height in
            var stop = options.frameLimit.map { $0 + 1 }
            let canvas = width * height
            if let limit = options.animationPixelLimit, canvas > 0 {
                stop = min(stop ?? Int.max, limit / canvas + 1)
            }
            return stop
        }
        try options.checkAnimation(width: layout.width, height: layout.height, frameCount: layout.frameCount)
        if options.strictness == .strict, case .failed(let error) = layout.ending { throw error }
        return layout
    }
}
