import Foundation
import Pixpipe

/// What `pixpipe convert` does with one input's bytes: a still image, one picked frame, or every frame of an
/// animation, decided by the input's frame count and what the output format can hold (the codec table's
/// ``ImageFormat/canEncodeAnimation``), never by naming a format.
struct Conversion {
    /// The command's settings.
    let settings: ConvertSettings
    /// How messages name the input.
    let inputName: String
    /// Where warnings and notes go.
    let console: Console

    /// `data` converted as the settings say.
    func output(for data: Data) throws -> Data {
        try product(for: data).data()
    }

    /// `data` converted: the encoded bytes, or for a still image the prepared image with its encoding, so
    /// that a file output can be encoded straight into the file.
    func product(for data: Data) throws -> ConversionProduct {
        let pixelLimit = settings.decodeOptions.pixelLimit
        if settings.recompressesJPEG {
            return .bytes(
                try JPEGXL.recompressing(
                    jpeg: data, effort: settings.effort ?? JXLEncodeOptions.defaultEffort, pixelLimit: pixelLimit))
        }
        if settings.format == .jpeg, settings.asksNoProcessing, ImageFormat.sniff(data) == .jxl,
            JPEGXL.hasReconstructionData(data)
        {
            // The JPEG the file was made from, byte for byte, rather than a decode and a re-encode.
            return .bytes(try JPEGXL.reconstructedJPEG(from: data, pixelLimit: pixelLimit))
        }
        // A header the info read cannot parse still gets the decoder's own, more precise, error below.
        let info = try? Image.info(data: data, options: settings.decodeOptions)
        let frameCount = info?.animation?.frameCount ?? 1
        if let index = settings.frame {
            return try .still(frame(index, of: data), settings.encoding)
        }
        if frameCount > 1 && settings.format.canEncodeAnimation {
            return .bytes(try animation(of: data))
        }
        if frameCount > 1 {
            console.warning(
                "\(inputName) has \(frameCount) frames; \(settings.format.rawValue) holds one: wrote the first "
                    + "(use --frame N to pick another)")
        }
        if let pages = info?.pages, pages.count > 1 {
            if try settings.encoding.canEncodePages { return .bytes(try allPages(of: data)) }
            console.warning("\(inputName) has \(pages.count) pages; wrote the first (use --frame N to pick another)")
        }
        let image = try Image(data: data, options: settings.decodeOptions)
        report(image.metadata.warnings)
        return try .still(settings.prepared(image), settings.encoding)
    }

    /// Every frame, each prepared as a still would be (resized, turned upright), with its duration and the
    /// loop count. Frames are decoded one at a time; only the prepared ones are kept for the encoder.
    private func animation(of data: Data) throws -> Data {
        let reader = try AnimationReader(data: data, options: settings.decodeOptions)
        let (frames, warnings) = try reader.transformedFrames { image in try settings.prepared(image) }
        report(warnings)
        return try settings.encoding.encodeAnimation(frames, loopCount: reader.loopCount)
    }

    /// Every page, each prepared as a still would be, written as the pages of one file at their own sizes.
    private func allPages(of data: Data) throws -> Data {
        let reader = try AnimationReader(data: data, options: settings.decodeOptions)
        let (frames, warnings) = try reader.transformedFrames { image in try settings.prepared(image) }
        report(warnings)
        return try settings.encoding.encodePages(frames.map(\.image))
    }

    /// Frame (or page) `index`, prepared.
    private func frame(_ index: Int, of data: Data) throws -> Image {
        let frame = try AnimationReader(data: data, options: settings.decodeOptions).frame(at: index)
        report(frame.image.metadata.warnings)
        return try settings.prepared(frame.image)
    }

    private func report(_ warnings: [DecodeWarning]) {
        for warning in warnings { console.warning("\(inputName): \(warning)") }
    }
}

/// What a conversion made: encoded bytes (an animation, pages, a JPEG rebuilt or recompressed), or one
/// prepared still image with the encoding to write it in.
enum ConversionProduct {
    /// Bytes ready to write.
    case bytes(Data)
    /// An image to encode.
    case still(Image, ImageEncoding)

    /// The encoded bytes.
    func data() throws -> Data {
        switch self {
        case .bytes(let data): data
        case .still(let image, let encoding): try image.encoded(as: encoding)
        }
    }
}

/// `--frame N` past the input's last frame or page: a usage error (exit status 2).
struct FrameOutOfRange: Error, CustomStringConvertible {
    /// The frame asked for.
    let index: Int
    /// The frames the input has.
    let frameCount: Int

    /// `the input has 3 frames (0 to 2); --frame 5 is out of range` (the command names the input).
    var description: String {
        let frames = frameCount == 1 ? "1 frame (0)" : "\(frameCount) frames (0 to \(frameCount - 1))"
        return "the input has \(frames); --frame \(index) is out of range"
    }
}
