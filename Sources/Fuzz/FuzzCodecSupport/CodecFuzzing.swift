import Foundation
import PixpipeImage

/// The body of the one-codec fuzz target (FuzzCodec, one run per format of the codec table): every way in to one decoder.
///
/// Inputs that do not sniff as the target's format are dropped at once, so the fuzzer's time goes to that
/// codec alone (FuzzDecode and FuzzFrames cover the sniffing between formats). A kept input is read by
/// its header, decoded as a still image, verified, and walked frame by frame, in both strictness modes.
/// Every input must end in images or an ``ImageDecodingError``.
public enum CodecFuzzing {
    /// Limits small enough that no input can make the fuzzer allocate more than a few tens of megabytes,
    /// and few frames, so a long animation costs one short walk.
    static let optionSets: [DecodeOptions] = [
        DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, frameLimit: 8, animationPixelLimit: 1 << 22),
        DecodeOptions(
            pixelLimit: 1 << 20, byteLimit: 1 << 22, keeps16Bit: true, strictness: .lenient, frameLimit: 8,
            animationPixelLimit: 1 << 22),
    ]

    /// Runs `bytes` through `format`'s decoder, if they are of that format.
    public static func run(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) {
        guard ImageFormat.sniff(bytes) == format else { return }
        let data = Data(bytes)
        _ = try? Image.info(data: data)
        for options in optionSets {
            // Touch the pixels so a short buffer shows up under AddressSanitizer.
            if let image = try? Image(bytes: bytes, options: options) { _ = image.pixels.last }
            _ = try? Image.verify(data: data, options: options)
            if let reader = try? AnimationReader(data: data, options: options) {
                while let frame = try? reader.nextFrame() { _ = frame.image.pixels.last }
            }
        }
    }
}
