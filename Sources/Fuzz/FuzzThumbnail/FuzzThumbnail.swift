import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzThumbnailTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnail(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzThumbnailTarget.testOneInput(start, count)
}

/// Thumbnails any bytes, both from a decoded image and straight from the bytes.
///
/// The first input bytes choose the thumbnail options, so the fuzzer explores sizes and filters along
/// with the picture. Every input must end in an image or a ``ImageProcessingError``.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzThumbnailTarget: FuzzTarget {
    /// Decode limits small enough that no input can make the fuzzer allocate more than a few megabytes.
    private static let decodeOptions = DecodeOptions(pixelLimit: 1_000_000)

    /// The resampling filters, one of which each option set picks from an input byte.
    private static let filters: [ResizeFilter] = [.box, .triangle, .mitchell, .catmullRom, .lanczos3]

    /// The thumbnail options derived from input byte `byte`: a side of 1...64, a size shape, fit or fill,
    /// upscaling, a filter and linear light, with limits as small as the decode's.
    private static func options(from byte: UInt8) -> ThumbnailOptions {
        let side = Int(byte & 0x3F) + 1
        let shapes: [ThumbnailOptions.Size] = [
            .box(side), .box(width: side, height: 65 - side), .width(side), .height(side),
        ]
        return ThumbnailOptions(
            size: shapes[Int(byte >> 6)], mode: byte & 1 == 0 ? .fit : .fill, allowsUpscaling: byte & 2 != 0,
            filter: filters[Int(byte) % filters.count], linearLight: byte & 4 != 0,
            pixelLimit: 1_000_000, sourcePixelLimit: 1_000_000, byteLimit: 1 << 22, maximumConcurrency: 1)
    }

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        // Three option sets from the first bytes; a fixed set too, so short inputs are thumbnailed as well.
        let optionSets = [options(from: 0x47)] + bytes.prefix(3).map(options(from:))
        if let image = try? Image(bytes: bytes, options: decodeOptions) {
            for options in optionSets {
                if let thumbnail = try? Thumbnailer(options).thumbnail(of: image) {
                    // Touch the pixels so a short buffer shows up under AddressSanitizer.
                    _ = thumbnail.pixels.last
                }
            }
        }
        for options in optionSets {
            if let thumbnail = try? Thumbnailer(options).thumbnail(bytes: bytes) {
                _ = thumbnail.pixels.last
            }
        }
    }
}
