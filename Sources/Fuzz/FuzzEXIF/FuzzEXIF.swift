import Foundation
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point: reads the orientation of any bytes taken as a TIFF-structured EXIF block,
/// and as a JPEG APP1 payload (`Exif\0\0` prefix).
///
/// Every input must give an orientation or `nil`; a trap or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInputRunner.bytes(start, count)
    _ = EXIFReader.orientation(tiff: bytes)
    if let tiff = EXIFReader.tiffBlock(app1Payload: bytes) {
        _ = EXIFReader.orientation(tiff: tiff)
    }
    return 0
}

#if !PIXPIPE_FUZZING
    /// Without libFuzzer: reads each file named on the command line, as a regression runner.
    @main
    enum FuzzEXIFRunner {
        /// Runs every argument through ``fuzzEXIF(_:_:)``.
        static func main() { FuzzInputRunner.main(entry: fuzzEXIF) }
    }
#endif
