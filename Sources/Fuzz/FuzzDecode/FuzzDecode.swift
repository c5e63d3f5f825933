import Foundation
import FuzzSupport
import PixpipeImage

/// The decode options tried on every input: both strictness modes, both sample depths, and limits small
/// enough that no input can make the fuzzer allocate more than a few tens of megabytes.
private let fuzzOptions: [DecodeOptions] = [
    DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: .strict),
    DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, keeps16Bit: true, strictness: .lenient),
]

/// libFuzzer's entry point: sniffs, reads the header of, and decodes any bytes as PNG or JPEG.
///
/// Every input must end in an image or an ``ImageDecodingError``; a trap, a sanitizer report, a hang
/// or unbounded memory is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInputRunner.bytes(start, count)
    _ = ImageFormat.sniff(bytes)
    for options in fuzzOptions {
        if let image = try? Image(bytes: bytes, options: options) {
            // Touch the pixels so a short buffer shows up under AddressSanitizer.
            _ = image.pixels.last
        }
    }
    return 0
}

#if !PIXPIPE_FUZZING
    /// Without libFuzzer: decodes each file named on the command line, as a regression runner.
    @main
    enum FuzzDecodeRunner {
        /// Runs every argument through ``fuzzDecode(_:_:)``.
        static func main() { FuzzInputRunner.main(entry: fuzzDecode) }
    }
#endif
