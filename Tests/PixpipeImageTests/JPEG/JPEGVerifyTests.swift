import Foundation
import Testing

@testable import PixpipeImage

/// `Image.verify` of a JPEG (luma only for YCbCr files, rows skipped rather than transformed on one-scan
/// Huffman files) comes to exactly what the plain 1/8 decode it replaced came to: the same warnings when it
/// succeeds, the same error when it fails, in strict and lenient mode, on whole, cut and damaged files.
@Suite struct JPEGVerifyTests {
    typealias Fixtures = JPEGTestImages

    /// What a read of the bytes came to, comparable between the two paths.
    enum Outcome: Equatable, CustomStringConvertible {
        case accepted([DecodeWarning])
        case refused(ImageDecodingError)

        var description: String {
            switch self {
            case .accepted(let warnings): "accepted \(warnings.map(\.code))"
            case .refused(let error): "refused: \(error)"
            }
        }
    }

    static let modes = [DecodeOptions(), DecodeOptions(strictness: .lenient)]

    static func verified(_ bytes: [UInt8], _ options: DecodeOptions) -> Outcome {
        bytes.withUnsafeBytes { raw in
            do throws(ImageDecodingError) {
                return .accepted(try JPEGCodec().verify(raw, options: options).metadata.warnings)
            } catch {
                return .refused(error)
            }
        }
    }

    /// The verification as it was: the header, the pixel limit, then a 1/8 decode keeping its pixels.
    static func decodedAtOneEighth(_ bytes: [UInt8], _ options: DecodeOptions) -> Outcome {
        bytes.withUnsafeBytes { raw in
            do throws(ImageDecodingError) {
                let reader = try JPEGReader(bytes: raw, pixelLimit: options.pixelLimit)
                let info = try JPEGDecoder.info(reader)
                try options.checkPixels(width: info.width, height: info.height)
                var reduced = options
                reduced.jpegScale = .eighths(1)
                return .accepted(try JPEGDecoder.decode(reader, options: reduced).metadata.warnings)
            } catch {
                return .refused(error)
            }
        }
    }

    /// A colour picture with fine detail (so every block has AC coefficients) at 160x120.
    static func detailed(gray: Bool = false) -> Image {
        let smooth = gray ? Fixtures.gray(width: 160, height: 120) : Fixtures.colour(width: 160, height: 120)
        var state: UInt32 = 12_345
        let pixels = smooth.pixels.map { sample in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(clamping: Int(sample) + Int(state >> 28) * 4 - 30)
        }
        return Image(width: smooth.width, height: smooth.height, pixelFormat: smooth.pixelFormat, pixels: pixels)
    }

    /// Baseline at each subsampling, gray, progressive, and with restart markers.
    static let sources: [(String, [UInt8])] = {
        var sources: [(String, [UInt8])] = []
        for subsampling in JPEGEncodeOptions.ChromaSubsampling.allCases {
            let options = JPEGEncodeOptions(quality: 90, chromaSubsampling: subsampling)
            sources.append((subsampling.rawValue, try! Fixtures.encode(detailed(), options)))
        }
        sources.append(("gray", try! Fixtures.encode(detailed(gray: true), JPEGEncodeOptions(quality: 90))))
        sources.append(("progressive", try! Fixtures.encode(detailed(), JPEGEncodeOptions(progressive: true))))
        var restarts = JPEGEncodeOptions(quality: 90)
        restarts.restartRows = 1
        sources.append(("restarts", try! Fixtures.encode(detailed(), restarts)))
        return sources
    }()

    /// `bytes`, cut at about 60 places and with one byte flipped at about 60 places past the header.
    static func damaged(_ bytes: [UInt8]) -> [[UInt8]] {
        var variants = [bytes]
        for length in stride(from: 2, to: bytes.count, by: max(1, bytes.count / 60)) {
            variants.append(Array(bytes.prefix(length)))
        }
        let scan = Fixtures.scanDataOffset(in: bytes) ?? 2
        for offset in stride(from: scan, to: bytes.count, by: max(1, (bytes.count - scan) / 60)) {
            var flipped = bytes
            flipped[offset] ^= 0x5A
            variants.append(flipped)
        }
        return variants
    }

    static func expectSameOutcomes(_ name: String, _ bytes: [UInt8]) {
        var refused = 0
        for (index, variant) in damaged(bytes).enumerated() {
            for options in modes {
                let verified = verified(variant, options)
                #expect(verified == decodedAtOneEighth(variant, options), "\(name) variant \(index)")
                if case .refused = verified { refused += 1 }
            }
        }
        #expect(refused > 0, "\(name): no damage was detected at all, the test would prove nothing")
    }

    @Test func agreesWithTheOneEighthDecodeOnWholeCutAndDamagedFiles() {
        for (name, bytes) in Self.sources { Self.expectSameOutcomes(name, bytes) }
    }

    /// Sampling factors (h << 4 | v) patched into the frame header for luma and Cb, among them chroma ratios
    /// libjpeg cannot upsample (3:2, 4:3), which the colour decode refuses and a luma-only read would not
    /// even look at.
    @Test(arguments: [
        (0x11, 0x22), (0x31, 0x11), (0x31, 0x21), (0x13, 0x12), (0x41, 0x31), (0x22, 0x12), (0x21, 0x12),
    ])
    func agreesOnUnusualSamplingFactors(luma: Int, chroma: Int) throws {
        let bytes = try #require(Self.sources.first { $0.0 == JPEGEncodeOptions.ChromaSubsampling.s420.rawValue }?.1)
        let frame = try #require(Fixtures.frameOffset(in: bytes))
        var patched = bytes
        // SOFn: marker, length, precision, height, width, count, then (id, h << 4 | v, table) per component.
        patched[frame + 11] = UInt8(luma)
        patched[frame + 14] = UInt8(chroma)
        for options in Self.modes {
            #expect(Self.verified(patched, options) == Self.decodedAtOneEighth(patched, options))
        }
    }

    @Test(
        .enabled(if: JPEGCorpus.isAvailable, "PIXPIPE_CORPORA is not set"),
        arguments: ["testorig", "testimgint", "testimgari"])
    func agreesOnLibjpegTurboFiles(name: String) throws {
        let bytes = [UInt8](try JPEGCorpus.data("libjpeg-turbo", "\(name).jpg"))
        Self.expectSameOutcomes(name, bytes)
    }
}
