import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzJPEGScaledTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGScaled(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzJPEGScaledTarget.testOneInput(start, count)
}

/// Decodes any bytes at a reduced JPEG scale, both strict and lenient.
///
/// The scale comes from the input's length, so the fuzzer reaches every M/8 scale without a header
/// byte that would make the seed JPEGs invalid; a second decode asks for at least 64 x 64 pixels. The
/// progressive preview decoder then sees the input as a download would deliver it, in growing prefixes.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzJPEGScaledTarget: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        let scales: [DecodeOptions.JPEGScale] = [.eighths(bytes.count % 8 + 1), .atLeast(width: 64, height: 64)]
        for (index, scale) in scales.enumerated() {
            let options = DecodeOptions(
                pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: index == 0 ? .strict : .lenient,
                jpegScale: scale)
            if let image = try? Image(bytes: bytes, options: options) {
                _ = image.pixels.last
            }
        }
        previewPrefixes(bytes)
    }

    /// Feeds growing prefixes (about 16 of them, then the whole) to a preview decoder, as a download would.
    private static func previewPrefixes(_ bytes: UnsafeRawBufferPointer) {
        let all = [UInt8](bytes)
        var decoder = ProgressiveJPEGPreviewDecoder(
            options: DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: .lenient), maxPixelSize: 64)
        for end in stride(from: max(1, all.count / 16), to: all.count, by: max(1, all.count / 16)) + [all.count] {
            guard let preview = try? decoder.preview(for: Array(all[..<end])) else { continue }
            _ = preview.pixels.last
        }
    }
}
