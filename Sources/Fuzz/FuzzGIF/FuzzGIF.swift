import Foundation
import FuzzSupport
import PixpipeImage

/// Limits small enough that no input can make the fuzzer allocate more than a few tens of megabytes, in
/// both strictness modes.
private let fuzzOptions: [DecodeOptions] = [
    DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, frameLimit: 64, animationPixelLimit: 1 << 22),
    DecodeOptions(
        pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: .lenient, frameLimit: 64, animationPixelLimit: 1 << 22),
]

/// libFuzzer's entry point: reads the header of, decodes the first frame of, and walks every frame of any
/// bytes as a GIF (other formats are refused by sniffing, or decoded as a still image).
///
/// Every input must end in frames or an ``ImageDecodingError``; a trap, a sanitizer report, a hang or
/// unbounded memory is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInputRunner.bytes(start, count)
    _ = try? Image.info(data: Data(bytes))
    for options in fuzzOptions {
        if let image = try? Image(bytes: bytes, options: options) { _ = image.pixels.last }
        if let reader = try? AnimationReader(data: Data(bytes), options: options) {
            while let frame = try? reader.nextFrame() { _ = frame.image.pixels.last }
        }
    }
    return 0
}

#if !PIXPIPE_FUZZING
    /// Without libFuzzer: decodes each file named on the command line, as a regression runner.
    @main
    enum FuzzGIFRunner {
        /// Runs every argument through ``fuzzGIF(_:_:)``.
        static func main() { FuzzInputRunner.main(entry: fuzzGIF) }
    }
#endif
