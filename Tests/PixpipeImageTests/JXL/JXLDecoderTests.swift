import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeImage

@Suite("JPEG XL decoding: sniffing, metadata, orientation, animations, damage and limits")
struct JXLDecoderTests {
    @Test("sniffs the bare codestream and the container signature, and nothing else")
    func sniffing() throws {
        #expect(ImageFormat.sniff(Data([0xFF, 0x0A, 0x00])) == .jxl)
        #expect(ImageFormat.sniff(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0])) == .jxl)
        #expect(ImageFormat.sniff(Data([0xFF, 0xD8, 0xFF])) != .jxl)
        #expect(ImageFormat.sniff(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0B])) == nil)
        #expect(ImageCodecs.codec(for: .jxl)?.fileExtensions == ["jxl"])
        #expect(ImageCodecs.codec(for: .jxl)?.mediaTypes == ["image/jxl"])
    }

    @Test("a lossless still decodes to the encoded samples; info agrees")
    func losslessStill() throws {
        let data = try JXLTestFiles.still()
        let image = try Image(data: data)
        #expect(image.pixels == JXLTestFiles.gradient().pixels)
        let info = try Image.info(data: data)
        #expect(info.format == .jxl && info.width == 64 && info.height == 48 && info.pixelFormat == .rgb8)
        #expect(info.animation == nil)
        #expect(try Image.verify(data: data).width == 64)
    }

    @Test(
        "the codestream orientation is reported, not applied; applied once it shows upright",
        .enabled(if: Corpora.isAvailable))
    func orientation() throws {
        let data = try JXLReference.data("gen-jpeg-orientation6.jxl")
        let image = try Image(data: data)
        #expect(image.width == 256 && image.height == 384)
        #expect(image.metadata.orientation == .right)
        #expect(try Image.info(data: data).metadata.orientation == .right)
        let upright = image.applyingOrientation()
        #expect(upright.width == 384 && upright.height == 256 && upright.metadata.orientation == .up)
    }

    @Test("Exif (its offset stripped) and XMP boxes go into the metadata", .enabled(if: Corpora.isAvailable))
    func exifAndXMP() throws {
        let data = try JXLReference.data("testdata-1x1_exif_xmp.jxl")
        for metadata in [try Image(data: data).metadata, try Image.info(data: data).metadata] {
            let exif = try #require(metadata.exif)
            #expect(exif.starts(with: [0x49, 0x49, 0x2A, 0x00]) || exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
            let xmp = try #require(metadata.xmp)
            #expect(String(decoding: xmp, as: UTF8.self).contains("x:xmpmeta"))
        }
    }

    @Test(
        "ICC: an encoded colour space comes as libjxl's profile, a stored one as stored",
        .enabled(if: Corpora.isAvailable))
    func colorProfiles() throws {
        let p3 = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("jxl", "display-p3.icc")))
        let lossless = try Image(data: try JXLReference.data("gen-icc-displayp3-lossless.jxl"))
        #expect(lossless.metadata.iccProfile == [UInt8](p3))
        let srgb = try Image(data: try JXLReference.data("gen-lossy-d1.jxl"))
        #expect((srgb.metadata.iccProfile?.count ?? 0) > 100)
    }

    @Test("16-bit and float sources give 16 bits with keeps16Bit, else 8", .enabled(if: Corpora.isAvailable))
    func depths() throws {
        let data = try JXLReference.data("conformance-lossless_pfm.jxl")
        #expect(try Image(data: data).pixelFormat == .rgb8)
        #expect(try Image(data: data, options: DecodeOptions(keeps16Bit: true)).pixelFormat.bitsPerSample == 16)
        #expect(try Image.info(data: data).pixelFormat.bitsPerSample == 16)
    }

    @Test("animations: first frame from Image(data:), frames one at a time, counts, durations, loops")
    func animation() throws {
        let data = try JXLTestFiles.animation(count: 3, milliseconds: 250)
        let first = try Image(data: data)
        let info = try Image.info(data: data)
        let animation = try #require(info.animation)
        #expect(animation.frameCount == 3 && animation.loopCount == 0 && animation.duration == .milliseconds(750))
        let reader = try AnimationReader(data: data)
        #expect(reader.format == .jxl && reader.frameCount == 3 && reader.loopCount == 0)
        let frames = try reader.allFrames()
        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(frames.allSatisfy { $0.duration == .milliseconds(250) })
        #expect(frames[0].image.pixels == first.pixels)
        for (index, frame) in frames.enumerated() {
            #expect(frame.image.pixels == JXLTestFiles.gradient(width: 32, height: 24, shade: index * 50).pixels)
        }
        #expect(try Image.verify(data: data).animation?.frameCount == 3)
    }

    @Test("a corpus animation's loop count and durations come from the header", .enabled(if: Corpora.isAvailable))
    func corpusAnimation() throws {
        let info = try Image.info(data: try JXLReference.data("gen-animation-apng-lossy-d2.jxl"))
        #expect(info.animation?.frameCount == 3)
        #expect(info.animation?.duration == .milliseconds(900))
    }

    @Test("frame limits: too many frames, too many pixels over all frames, checked before any frame")
    func frameLimits() throws {
        let data = try JXLTestFiles.animation(count: 3)
        #expect(throws: ImageDecodingError.tooManyFrames(count: 3, limit: 2)) {
            try AnimationReader(data: data, options: DecodeOptions(frameLimit: 2))
        }
        #expect(throws: ImageDecodingError.animationTooLarge(width: 32, height: 24, frames: 3, limit: 2000)) {
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: 2000))
        }
        #expect(throws: ImageDecodingError.tooLarge(width: 64, height: 48, limit: 1000)) {
            try Image(data: try JXLTestFiles.still(), options: DecodeOptions(pixelLimit: 1000))
        }
    }

    @Test("a header declaring 100,000 x 100,000 pixels is refused from the basic info, fast")
    func sizeBomb() throws {
        let bomb = JXLTestFiles.declaredSize(width: 100_000, height: 100_000)
        #expect(ImageFormat.sniff(bomb) == .jxl)
        let stopwatch = CPUStopwatch()
        #expect(throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try Image(data: bomb)
        }
        #expect(throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try AnimationReader(data: bomb)
        }
        #expect(throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try Image.verify(data: bomb)
        }
        #expect(TestTimeLimit.checkedCPUTime(of: stopwatch) < TestTimeLimit.refusal)
    }

    @Test("an animation of a million 1 x 1 frames is refused at frame 10,001, fast")
    func frameBomb() throws {
        let bomb = try JXLTestFiles.manyFrames(1_000_000)
        let stopwatch = CPUStopwatch()
        #expect(throws: ImageDecodingError.tooManyFrames(count: 10_001, limit: 10_000)) {
            try AnimationReader(data: bomb)
        }
        #expect(throws: ImageDecodingError.tooManyFrames(count: 10_001, limit: 10_000)) { try Image.info(data: bomb) }
        #expect(throws: ImageDecodingError.tooManyFrames(count: 10_001, limit: 10_000)) {
            try Image.verify(data: bomb)
        }
        #expect(TestTimeLimit.checkedCPUTime(of: stopwatch) < TestTimeLimit.refusal)
        // The crafted file is a real animation: with a small count it plays.
        let small = try JXLTestFiles.manyFrames(20)
        #expect(try AnimationReader(data: small).allFrames().count == 20)
    }

    @Test("a cut file is a typed error at every offset, in strict and in lenient mode")
    func truncation() throws {
        var files = [try JXLTestFiles.still()]
        if Corpora.isAvailable { files.append(try JXLReference.data("gen-lossy-d1.jxl")) }
        for data in files {
            var truncatedCount = 0
            let offsets = Array(stride(from: 1, to: data.count, by: max(data.count / 40, 1))) + [data.count - 1]
            for offset in offsets {
                for strictness in [DecodeOptions.Strictness.strict, .lenient] {
                    do {
                        _ = try Image(data: data.prefix(offset), options: DecodeOptions(strictness: strictness))
                        Issue.record("a file cut at \(offset) of \(data.count) decoded")
                    } catch {
                        let expected: Set<ImageDecodingError.Case> =
                            offset < 2 ? [.unsupportedFormat] : [.truncated, .corrupt]
                        #expect(expected.contains(error.case), "\(offset): \(error)")
                        if error.case == .truncated { truncatedCount += 1 }
                    }
                }
            }
            // libjxl's JXL_DEC_ERROR on a cut frame is named a truncation (the probe in JXLDecoderHandle).
            #expect(truncatedCount >= 2 * (offsets.count - 1), "\(truncatedCount) of \(2 * offsets.count)")
        }
    }

    @Test("damaged bytes give a typed error or an image, never a crash", .enabled(if: Corpora.isAvailable))
    func damage() throws {
        for file in ["gen-lossy-d1.jxl", "gen-lossless.jxl", "gen-animation-from-gif.jxl"] {
            let data = [UInt8](try JXLReference.data(file))
            for position in stride(from: 2, to: data.count, by: max(data.count / 60, 1)) {
                var damaged = data
                damaged[position] ^= 0x5A
                do {
                    _ = try AnimationReader(data: Data(damaged), options: DecodeOptions(strictness: .lenient))
                        .allFrames()
                    _ = try Image(data: Data(damaged))
                } catch {
                    #expect(error.case != .unsupportedFormat || position < 12)
                }
            }
        }
    }

    @Test("an animation cut in its last frame: strict throws, lenient ends after the whole frames with a warning")
    func truncatedAnimation() throws {
        let data = try JXLTestFiles.animation(count: 4, width: 64, height: 48)
        let cut = data.prefix(data.count - 40)
        #expect(throws: ImageDecodingError.self) { try AnimationReader(data: cut).allFrames() }
        let frames = try AnimationReader(data: cut, options: DecodeOptions(strictness: .lenient)).allFrames()
        #expect(frames.count == 3)
        #expect(frames.last?.image.metadata.warnings.first?.code == "jxl-animation-cut")
    }
}
