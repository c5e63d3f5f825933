import FuzzCodecSupport
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzAVIFTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzAVIFTarget.testOneInput(start, count)
}

/// Reads the header of, decodes, verifies and walks every frame of any bytes that sniff as
/// AVIF (libavif and dav1d: stills, grids, alpha, image sequences), and nothing else (see ``CodecFuzzing``).
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzAVIFTarget: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) { CodecFuzzing.run(bytes, format: .avif) }
}
