import Foundation
import FuzzSupport
import PixpipeImage

/// The options tried on every input: both strictness modes and both depths, under limits small enough that
/// no input makes libavif or dav1d allocate more than a few tens of megabytes.
private let fuzzOptions: [DecodeOptions] = [
    DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: .strict, frameLimit: 8),
    DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, keeps16Bit: true, strictness: .lenient, frameLimit: 8),
]

/// libFuzzer's entry point: reads the header of, decodes, and walks the frames of any bytes as AVIF.
///
/// Every input must end in an image or an ``ImageDecodingError``; a trap, a sanitizer report, a hang
/// or unbounded memory is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInputRunner.bytes(start, count)
    guard ImageFormat.sniff(bytes) == .avif else { return 0 }
    _ = try? Image.info(data: Data(bytes))
    for options in fuzzOptions {
        if let image = try? Image(bytes: bytes, options: options) {
            // Touch the pixels so a short buffer shows up under AddressSanitizer.
            _ = image.pixels.last
        }
        if let reader = try? AnimationReader(data: Data(bytes), options: options) {
            while let frame = try? reader.nextFrame() { _ = frame.image.pixels.last }
        }
    }
    return 0
}

#if !PIXPIPE_FUZZING
    /// Without libFuzzer: decodes each file named on the command line, as a regression runner.
    @main
    enum FuzzAVIFRunner {
        /// Runs every argument through ``fuzzAVIF(_:_:)``.
        static func main() { FuzzInputRunner.main(entry: fuzzAVIF) }
    }
#endif
