import Foundation
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzFramesTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzFramesTarget.testOneInput(start, count)
}

/// Reads the header of, decodes the first frame of, and walks every frame of any bytes through the
/// animated decoders (GIF, WebP, AVIF; other formats as one-frame animations). `scripts/fuzz` seeds it
/// with the three corpora.
///
/// Every input must end in frames or an ``ImageDecodingError``.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzFramesTarget: FuzzTarget {
    /// Limits small enough that no input can make the fuzzer allocate more than a few tens of megabytes, in
    /// both strictness modes.
    private static let optionSets: [DecodeOptions] = [
        DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, frameLimit: 64, animationPixelLimit: 1 << 22),
        DecodeOptions(
            pixelLimit: 1 << 20, byteLimit: 1 << 22, keeps16Bit: true, strictness: .lenient, frameLimit: 64,
            animationPixelLimit: 1 << 22),
    ]

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        _ = try? Image.info(data: data)
        for options in optionSets {
            if let image = try? Image(bytes: bytes, options: options) { _ = image.pixels.last }
            if let reader = try? AnimationReader(data: data, options: options) {
                while let frame = try? reader.nextFrame() { _ = frame.image.pixels.last }
            }
        }
    }
}
