import FuzzCodecSupport
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzGIFTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzGIFTarget.testOneInput(start, count)
}

/// Reads the header of, decodes, verifies and walks every frame of any bytes that sniff as
/// GIF (87a and 89a, palettes, every disposal, frames clipped to the canvas), and nothing else (see ``CodecFuzzing``).
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzGIFTarget: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) { CodecFuzzing.run(bytes, format: .gif) }
}
