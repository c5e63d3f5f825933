import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeImage

@Suite("AVIF decoding: sniffing, metadata, transforms, damage and limits")
struct AVIFDecoderTests {
    /// An `ftyp` box with `major` and `compatible` brands, padded to 64 bytes.
    static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        var box = PNGBytes.bigEndian(UInt32(size)) + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { box += Array(brand.utf8) }
        return box + [UInt8](repeating: 0, count: 64 - box.count)
    }

    @Test("sniffs an ftyp box with an avif or avis brand, major or compatible, and nothing else")
    func sniffing() {
        #expect(ImageFormat.sniff(Self.ftyp(major: "avif", compatible: ["mif1"])) == .avif)
        #expect(ImageFormat.sniff(Self.ftyp(major: "mif1", compatible: ["miaf", "avis"])) == .avif)
        // A HEIC is not AVIF: ISOBMFFBrands gives it to the HEIF codec.
        #expect(ImageFormat.sniff(Self.ftyp(major: "heic", compatible: ["mif1", "heix"])) == .heif)
        #expect(ImageFormat.sniff(Array(Self.ftyp(major: "avif", compatible: []).prefix(8))) == nil)
        #expect(ImageFormat(name: "AVIF") == .avif)
        #expect(ImageFormat.avif.mediaTypes.contains("image/avif"))
    }

    @Test("irot and imir are reported as orientation; applied, every file shows the upright kimono")
    func transforms() throws {
        guard Corpora.isAvailable else { return }
        let upright = try Image(data: AVIFTestFiles.corpus("kimono.avif"))
        #expect(upright.metadata.orientation == .up)
        let expected: [String: Orientation] = [
            "kimono.rotate90.avif": .right, "kimono.rotate270.avif": .left,
            "kimono.mirror-horizontal.avif": .upMirrored, "kimono.mirror-vertical.avif": .downMirrored,
            "kimono.mirror-vertical.rotate270.avif": .leftMirrored,
        ]
        for (file, orientation) in expected {
            let data = try AVIFTestFiles.corpus(file)
            let image = try Image(data: data)
            #expect(image.metadata.orientation == orientation, "\(file)")
            #expect(try Image.info(data: data).metadata.orientation == orientation, "\(file)")
            let shown = image.applyingOrientation()
            #expect(shown.width == upright.width && shown.height == upright.height, "\(file)")
            if shown.width == upright.width, shown.height == upright.height {
                #expect(shown.psnr(upright) > 30, "\(file)")
            }
        }
    }

    @Test("clap is not applied, as avifdec; odd crop offsets decode with a warning in both modes")
    func cleanAperture() throws {
        guard Corpora.isAvailable else { return }
        let data = try AVIFTestFiles.corpus("kimono.crop.avif")
        for strictness in [DecodeOptions.Strictness.strict, .lenient] {
            let image = try Image(data: data, options: DecodeOptions(strictness: strictness))
            #expect(image.width == 722 && image.height == 1024)
            #expect(image.metadata.warnings.count == 1)
            #expect(image.metadata.warnings.first?.message.contains("[Strict]") == true)
        }
        #expect(try Image.info(data: data).metadata.warnings.count == 1)
    }

    @Test("EXIF is read from its TIFF header, the same by info and decode; no ICC where there is none")
    func metadata() throws {
        guard Corpora.isAvailable else { return }
        let data = try AVIFTestFiles.corpus("Tomsk_with_thumbnails.avif")
        let image = try Image(data: data)
        let exif = try #require(image.metadata.exif)
        #expect(exif.starts(with: [0x49, 0x49, 0x2A, 0x00]) || exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
        let info = try Image.info(data: data)
        #expect(info.metadata.exif == exif)
        #expect(info.format == .avif && info.width == 1280 && info.height == 720 && info.pixelFormat == .rgb8)
        #expect(info.animation == nil)
        #expect(image.metadata.iccProfile == nil)
    }

    @Test("a cut file is a typed error at every offset, in strict and in lenient mode")
    func truncation() throws {
        var files = [try AVIFTestFiles.still()]
        if Corpora.isAvailable { files.append(try AVIFTestFiles.corpus("fox.profile1.8bpc.yuv444.avif")) }
        for data in files {
            var truncatedCount = 0
            let offsets = Array(stride(from: 1, to: data.count, by: max(data.count / 40, 1)))
            for offset in offsets + [data.count - 1] {
                let cut = data.prefix(offset)
                for strictness in [DecodeOptions.Strictness.strict, .lenient] {
                    do {
                        _ = try Image(data: cut, options: DecodeOptions(strictness: strictness))
                        Issue.record("a file cut at \(offset) of \(data.count) decoded")
                    } catch {
                        if error.case == .truncated { truncatedCount += 1 }
                        #expect(
                            [.truncated, .corrupt, .unsupportedFormat].contains(error.case), "\(offset): \(error)")
                    }
                }
            }
            // Past the ftyp box every cut is named a truncation.
            #expect(truncatedCount >= 2 * offsets.count - 4)
        }
    }

    @Test("damaged boxes or AV1 data give a typed error or an image, never a crash")
    func damage() throws {
        let data = [UInt8](try AVIFTestFiles.still())
        for position in stride(from: 24, to: data.count, by: 7) {
            var damaged = data
            damaged[position] ^= 0x5A
            do {
                let image = try Image(data: Data(damaged))
                #expect(image.width > 0)
            } catch {
                #expect(error.case != .unsupportedFormat || position < 32)
            }
        }
        // The meta box renamed: no image items at all.
        var renamed = data
        if let meta = (0..<(data.count - 4)).first(where: { Array(data[$0..<($0 + 4)]) == Array("meta".utf8) }) {
            renamed[meta + 1] = UInt8(ascii: "x")
        }
        #expect(throws: ImageDecodingError.self) { try Image(data: Data(renamed)) }
    }

    @Test("a declared 30,000 x 30,000 image is refused from the header, fast, with tooLarge")
    func sizeBomb() throws {
        let bomb = AVIFTestFiles.withDeclaredSize(try AVIFTestFiles.still(), width: 30_000, height: 30_000)
        #expect(ImageFormat.sniff(bomb) == .avif)
        let stopwatch = CPUStopwatch()
        for attempt in 0..<3 {
            do {
                switch attempt {
                case 0: _ = try Image(data: bomb)
                case 1: _ = try AnimationReader(data: bomb)
                default: _ = try Image.info(data: bomb)
                }
                Issue.record("a 30,000 x 30,000 AVIF was accepted")
            } catch {
                #expect(
                    error == .tooLarge(width: 30_000, height: 30_000, limit: attempt == 2 ? 16384 * 16384 : 100_000_000)
                )
            }
        }
        #expect(TestTimeLimit.checkedCPUTime(of: stopwatch) < TestTimeLimit.refusal)
        // A size libavif accepts but our limit does not: refused before any AV1 decoding.
        let small = try AVIFTestFiles.still()
        #expect(throws: ImageDecodingError.tooLarge(width: 64, height: 48, limit: 1000)) {
            try Image(data: small, options: DecodeOptions(pixelLimit: 1000))
        }
    }

    @Test("sequences: first frame from Image(data:), frames walked one at a time, counts and timing in info")
    func sequence() throws {
        let data = try AVIFTestFiles.sequence(count: 3, milliseconds: 250)
        let first = try Image(data: data)
        #expect(first.width == 32 && first.height == 24)
        let info = try Image.info(data: data)
        let animation = try #require(info.animation)
        #expect(animation.frameCount == 3 && animation.loopCount == 0)
        #expect(animation.duration == .milliseconds(750))
        let reader = try AnimationReader(data: data)
        #expect(reader.format == .avif && reader.frameCount == 3 && reader.loopCount == 0)
        let frames = try reader.allFrames()
        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(frames.allSatisfy { $0.duration == .milliseconds(250) })
        #expect(frames[0].image.pixels == first.pixels)
        // Each frame is its own shade (40, 90, 140 before coding).
        let means = frames.map { frame in frame.image.pixels.reduce(0) { $0 + Int($1) } / frame.image.pixels.count }
        #expect(abs(means[0] - 40) < 6 && abs(means[1] - 90) < 6 && abs(means[2] - 140) < 6, "\(means)")
        #expect(try Image.verify(data: data).animation?.frameCount == 3)
    }

    @Test("frame limits are checked from the header before any frame")
    func frameLimits() throws {
        let data = try AVIFTestFiles.sequence(count: 3)
        #expect(throws: ImageDecodingError.tooManyFrames(count: 3, limit: 2)) {
            try AnimationReader(data: data, options: DecodeOptions(frameLimit: 2))
        }
        #expect(throws: ImageDecodingError.animationTooLarge(width: 32, height: 24, frames: 3, limit: 2000)) {
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: 2000))
        }
    }

    @Test("a sequence declaring 100,000 frames is refused from the header, fast, with tooManyFrames")
    func frameBomb() throws {
        let bomb = AVIFTestFiles.withDeclaredFrames(try AVIFTestFiles.sequence(count: 4), frames: 100_000)
        let stopwatch = CPUStopwatch()
        #expect(throws: ImageDecodingError.tooManyFrames(count: 100_000, limit: 10_000)) {
            try AnimationReader(data: bomb)
        }
        #expect(throws: ImageDecodingError.tooManyFrames(count: 100_000, limit: 10_000)) { try Image(data: bomb) }
        // Without a frame limit the missing samples are found while parsing: still a typed error.
        #expect(throws: ImageDecodingError.self) {
            try AnimationReader(data: bomb, options: DecodeOptions(frameLimit: nil))
        }
        #expect(TestTimeLimit.checkedCPUTime(of: stopwatch) < TestTimeLimit.refusal)
    }

    @Test("a sequence cut in its last frame: strict throws, lenient ends after the whole frames with a warning")
    func truncatedSequence() throws {
        let data = try AVIFTestFiles.sequence(count: 4)
        let cut = data.prefix(data.count - 20)
        #expect(throws: ImageDecodingError.self) { try AnimationReader(data: cut).allFrames() }
        let lenient = try AnimationReader(data: cut, options: DecodeOptions(strictness: .lenient))
        let frames = try lenient.allFrames()
        #expect(frames.count == 3)
        // Every frame says the file was cut; the last also says the frames after it were lost.
        #expect(frames.allSatisfy { $0.image.metadata.warnings.first?.kind == .truncated })
        #expect(frames.last?.image.metadata.warnings.contains { $0.message.contains("not decoded") } == true)
        #expect(frames.dropLast().allSatisfy { $0.image.metadata.warnings.count == 1 })
        // Each through its row of the table: the cut box, then the frames lost to it.
        #expect(frames.allSatisfy { $0.image.metadata.warnings.first?.code == "avif-last-box-cut" })
        #expect(frames.last?.image.metadata.warnings.last?.code == "avif-animation-cut")
        // Image(data:) in lenient mode gives the whole first frame of the cut file.
        #expect(try Image(data: cut, options: DecodeOptions(strictness: .lenient)).pixels == frames[0].image.pixels)
    }

    @Test("the thumbnailer decodes in full, resizes, and turns irot upright")
    func thumbnail() throws {
        guard Corpora.isAvailable else { return }
        let data = try AVIFTestFiles.corpus("kimono.rotate90.avif")
        let thumbnail = try Thumbnailer(ThumbnailOptions(size: .box(128))).thumbnail(data: data)
        // Stored 1024 x 722, shown 722 x 1024.
        #expect(thumbnail.height == 128 && thumbnail.width == 90)
        let upright = try Thumbnailer(ThumbnailOptions(size: .box(128))).thumbnail(
            data: AVIFTestFiles.corpus("kimono.avif"))
        #expect(thumbnail.psnr(upright) > 25)
    }
}
