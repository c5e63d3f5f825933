import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzEXIFTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzEXIFTarget.testOneInput(start, count)
}

/// Reads the orientation of any bytes taken as a TIFF-structured EXIF block, and as a JPEG APP1 payload
/// (`Exif\0\0` prefix).
///
/// Every input must give an orientation or `nil`.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzEXIFTarget: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        _ = EXIFReader.orientation(tiff: bytes)
        if let tiff = EXIFReader.tiffBlock(app1Payload: bytes) {
            _ = EXIFReader.orientation(tiff: tiff)
        }
    }
}
