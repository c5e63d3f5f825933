import FuzzCodecSupport
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzWebPTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzWebPTarget.testOneInput(start, count)
}

/// Reads the header of, decodes, verifies and walks every frame of any bytes that sniff as
/// WebP (lossy, lossless, alpha, animations composited by libwebp), and nothing else (see ``CodecFuzzing``).
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzWebPTarget: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) { CodecFuzzing.run(bytes, format: .webp) }
}
