import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeImage

@Suite struct ProgressiveJPEGPreviewTests {
    typealias Fixtures = JPEGTestImages

    /// A picture with fine detail, so later (AC) scans visibly add to the first (DC) ones.
    static func detailed(width: Int = 128, height: Int = 96) -> Image {
        var image = Fixtures.colour(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (x / 3 + y / 2) % 2 == 0 {
                image[x: x, y: y, channel: 1] = 255 - image[x: x, y: y, channel: 1]
            }
        }
        return image
    }

    /// The number of SOS markers in a JPEG, segment by segment.
    static func scanCount(_ bytes: [UInt8]) -> Int {
        var tracker = JPEGScanTracker()
        bytes.withUnsafeBytes { try? tracker.advance($0) }
        return tracker.completeScans
    }

    /// Every preview made while feeding `bytes` `step` bytes at a time, then whole.
    static func previews(_ bytes: [UInt8], step: Int, maxPixelSize: Int? = nil) throws -> [(scans: Int, image: Image)] {
        var decoder = ProgressiveJPEGPreviewDecoder(maxPixelSize: maxPixelSize)
        var previews: [(Int, Image)] = []
        for end in Swift.stride(from: step, to: bytes.count, by: step) + [bytes.count] {
            if let image = try decoder.preview(for: Array(bytes[..<end])) {
                previews.append((decoder.completedScans, image))
            }
        }
        return previews
    }

    @Test func previewsAppearAtScanBoundariesAndConvergeOnTheFullDecode() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        let full = try Fixtures.decode(bytes)
        let scans = Self.scanCount(bytes)
        #expect(scans >= 5, "libjpeg's default progression has about ten scans")
        // Byte by byte: exactly one preview per scan, made when the marker after the scan arrives.
        let previews = try Self.previews(bytes, step: 1)
        #expect(previews.map(\.scans) == Array(1...scans))
        let psnrs = previews.map { Fixtures.psnr($0.image.pixels, full.pixels) }
        #expect(psnrs.last == .infinity, "the last preview is the full decode")
        #expect(psnrs[0] < 30, "the first scan (DC only) is a coarse picture: \(psnrs)")
        for (earlier, later) in zip(psnrs, psnrs.dropFirst()) {
            #expect(later >= earlier - 0.5, "each scan adds detail: \(psnrs)")
        }
        #expect(previews.allSatisfy { $0.image.width == 128 && $0.image.height == 96 })
    }

    @Test func noPreviewWhileNoNewScanCompleted() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        var decoder = ProgressiveJPEGPreviewDecoder()
        let sos = try #require(Fixtures.markerOffset(0xDA, in: bytes))
        #expect(try decoder.preview(for: Array(bytes[..<(sos + 20)])) == nil, "first scan not complete yet")
        var first: Int?
        for end in (sos + 20)...bytes.count where first == nil {
            if try decoder.preview(for: Array(bytes[..<end])) != nil { first = end }
        }
        let end = try #require(first)
        #expect(try decoder.preview(for: Array(bytes[..<end])) == nil, "the same bytes again: nothing new")
        #expect(try decoder.preview(for: Array(bytes[..<(end + 1)])) == nil)
    }

    @Test func reducedScaleWhenAskedForASmallPreview() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        let previews = try Self.previews(bytes, step: 256, maxPixelSize: 32)
        #expect(!previews.isEmpty)
        #expect(previews.allSatisfy { $0.image.width == 32 && $0.image.height == 24 })
    }

    @Test func baselineJPEGAndOtherFormatsGiveNoPreview() throws {
        let image = Self.detailed()
        let baseline = try Fixtures.encode(image, .init(quality: 90))
        #expect(try Self.previews(baseline, step: 64).isEmpty)
        let png = try Array(image.encoded(as: .png))
        #expect(try Self.previews(png, step: 64).isEmpty)
    }

    @Test func pixelLimitRefusesThePreviewBeforeDecoding() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        var decoder = ProgressiveJPEGPreviewDecoder(options: DecodeOptions(pixelLimit: 1000))
        #expect(throws: ImageDecodingError.tooLarge(width: 128, height: 96, limit: 1000)) {
            try decoder.preview(for: bytes)
        }
    }

    @Test func damagedPrefixesThrowTypedErrorsOrGiveNothing() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        var random = SeededGenerator(seed: 19)
        var thrown = 0
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 2..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            var decoder = ProgressiveJPEGPreviewDecoder(options: DecodeOptions(strictness: .lenient))
            do {
                for end in Swift.stride(from: 97, to: damaged.count, by: 97) + [damaged.count] {
                    _ = try decoder.preview(for: Array(damaged[..<end]))
                }
            } catch {
                thrown += 1
            }
        }
        #expect(thrown > 0, "some damage is caught")
        // Not a JPEG marker structure at all.
        var decoder = ProgressiveJPEGPreviewDecoder()
        #expect(throws: ImageDecodingError.self) { try decoder.preview(for: [0xFF, 0xD8, 0x00, 0x12, 0x34]) }
    }
}
