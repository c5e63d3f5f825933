import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzDecodeTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecodeTarget.testOneInput(start, count)
}

/// Sniffs, reads the header of, and decodes any bytes as whichever format of the codec table they look like.
///
/// Every input must end in an image or an ``ImageDecodingError``.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzDecodeTarget: FuzzTarget {
    /// The decode options tried on every input: both strictness modes, both sample depths, and limits small
    /// enough that no input can make the fuzzer allocate more than a few tens of megabytes.
    private static let optionSets: [DecodeOptions] = [
        DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, strictness: .strict),
        DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, keeps16Bit: true, strictness: .lenient),
    ]

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        _ = ImageFormat.sniff(bytes)
        for options in optionSets {
            if let image = try? Image(bytes: bytes, options: options) {
                // Touch the pixels so a short buffer shows up under AddressSanitizer.
                _ = image.pixels.last
            }
        }
    }
}
