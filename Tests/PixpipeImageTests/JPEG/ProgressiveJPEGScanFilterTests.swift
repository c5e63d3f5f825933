import Foundation
import Testing

@testable import PixpipeImage

/// A progressive JPEG thumbnailed at 1/8 or 2/8 reads only the scans that decode needs: at 1/8 the same
/// pixels, at 2/8 within a hair of them; the same failures for truncated and malformed files, and the
/// whole file when asked.
@Suite("Thumbnail: progressive JPEG at 1/8 and 2/8 from the scans it needs")
struct ProgressiveJPEGScanFilterTests {
    typealias Fixtures = JPEGTestImages

    /// A 768x512 thumbnailed into 32 px decodes at 1/8 (96x64, three times the target).
    static let eighthThumbnail = ThumbnailOptions(size: .box(32))
    /// A 768x512 thumbnailed into 63 px decodes at 2/8 (192x128, three times the target).
    static let quarterThumbnail = ThumbnailOptions(size: .box(63))

    /// A detailed picture (noise over gradients), so the AC scans are most of the file.
    static func detailed() -> Image {
        let base = Fixtures.colour(width: 768, height: 512)
        let noise = TestImages.noise(width: 768, height: 512, format: .rgb8)
        let pixels = zip(base.pixels, noise.pixels).map { UInt8((Int($0) + Int($1)) / 2) }
        return Image(width: 768, height: 512, pixelFormat: .rgb8, pixels: pixels)
    }

    /// Progressive encodings of `image` in every chroma layout, plus gray.
    static func progressiveSamples(_ image: Image) throws -> [(name: String, bytes: [UInt8])] {
        var samples = try JPEGEncodeOptions.ChromaSubsampling.allCases.map { subsampling in
            (
                subsampling.rawValue,
                try Fixtures.encode(image, .init(quality: 90, progressive: true, chromaSubsampling: subsampling))
            )
        }
        samples.append(("gray", try Fixtures.encode(image.converted(to: .gray8), .init(progressive: true))))
        return samples
    }

    /// The thumbnail with and without the whole source decoded.
    static func bothThumbnails(
        _ bytes: [UInt8], options: ThumbnailOptions = eighthThumbnail, strictness: DecodeOptions.Strictness = .strict
    ) throws -> (shown: Image, whole: Image) {
        var options = options
        options.strictness = strictness
        let shown = try Thumbnailer(options).thumbnail(data: Data(bytes))
        options.decodesWholeSource = true
        let whole = try Thumbnailer(options).thumbnail(data: Data(bytes))
        return (shown, whole)
    }

    /// `bytes` filtered for a decode at `numerator`/8, or nil.
    static func filtered(_ bytes: [UInt8], numerator: Int = 1) throws -> [UInt8]? {
        let plan = try bytes.withUnsafeBytes { buffer in
            let reader = try JPEGReader(bytes: buffer, pixelLimit: nil)
            _ = try reader.configure(scaleNumerator: numerator, space: reader.outputSpace)
            return ProgressiveJPEGScanFilter.plan(numerator: numerator, components: reader.componentBlocks)
        }
        return bytes.withUnsafeBytes { ProgressiveJPEGScanFilter.droppingScans(plan, in: $0) }
    }

    /// A scan header as the tests read it: components, spectral start, successive approximation bits.
    struct ScanHeader: Hashable {
        var components: [UInt8]
        var spectralStart: UInt8
        var high: UInt8
        var low: UInt8
        /// Where its entropy-coded data lies.
        var data: Range<Int>
    }

    /// The scans of a well-formed JPEG, in order.
    static func scans(_ bytes: [UInt8]) -> [ScanHeader] {
        var scans: [ScanHeader] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xD9 {
            let end = position + 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
            guard bytes[position + 1] == 0xDA else {
                position = end
                continue
            }
            let count = Int(bytes[position + 4])
            let scanEnd = bytes.withUnsafeBytes { JPEGScanTracker.nextMarker($0, from: end) } ?? bytes.count
            let approximation = bytes[position + 7 + 2 * count]
            scans.append(
                ScanHeader(
                    components: (0..<count).map { bytes[position + 5 + 2 * $0] },
                    spectralStart: bytes[position + 5 + 2 * count], high: approximation >> 4,
                    low: approximation & 0x0F, data: end..<scanEnd))
            position = scanEnd
        }
        return scans
    }

    /// The byte range of the largest scan's entropy-coded data (a luma AC scan in these files).
    static func largestScan(_ bytes: [UInt8]) -> Range<Int> {
        scans(bytes).map(\.data).max { $0.count < $1.count } ?? 0..<0
    }

    @Test func theThumbnailIsTheWholeDecodesBitForBit() throws {
        for sample in try Self.progressiveSamples(Self.detailed()) {
            let filtered = try #require(try Self.filtered(sample.bytes), "\(sample.name): nothing dropped")
            // Most of a detailed file is its luma AC scans (all AC scans for 4:4:4 and gray).
            #expect(
                filtered.count * 2 < sample.bytes.count, "\(sample.name): \(filtered.count) of \(sample.bytes.count)")
            let (shown, whole) = try Self.bothThumbnails(sample.bytes)
            #expect(shown.width == 32 && shown.height == 21)
            #expect(shown.pixels == whole.pixels, "\(sample.name)")
        }
    }

    @Test func theEighthDecodeIsTheWholeFilesEighthDecode() throws {
        for sample in try Self.progressiveSamples(Self.detailed()) {
            let filtered = try #require(try Self.filtered(sample.bytes))
            let whole = try Fixtures.decode(sample.bytes, .init(jpegScale: .eighths(1)))
            let shown = try filtered.withUnsafeBytes { buffer in
                let reader = try JPEGReader(bytes: buffer, pixelLimit: nil)
                reader.disableBlockSmoothing()
                return try JPEGDecoder.decode(reader, options: .init(jpegScale: .eighths(1)))
            }
            #expect(shown.width == 96 && shown.height == 64)
            #expect(shown.pixels == whole.pixels, "\(sample.name)")
            // Block smoothing would guess the dropped coefficients: off, or the pixels differ.
            let smoothed = try Fixtures.decode(filtered, .init(jpegScale: .eighths(1)))
            #expect(smoothed.pixels != whole.pixels || sample.name == "gray" || sample.name == "4:4:4")
        }
    }

    @Test func aFileGivesTheSameThumbnailAsItsBytes() throws {
        let folder = try ThumbnailFileTests.Folder()
        for sample in try Self.progressiveSamples(Self.detailed()) {
            let path = try folder.write(Data(sample.bytes), to: "\(sample.name).jpg")
            let fromFile = try Thumbnailer(Self.eighthThumbnail).thumbnail(contentsOfFile: path)
            let (_, whole) = try Self.bothThumbnails(sample.bytes)
            #expect(fromFile.pixels == whole.pixels, "\(sample.name)")
        }
    }

    @Test func damageInADroppedScanCannotChangeTheThumbnail() throws {
        let image = Self.detailed()
        let bytes = try Fixtures.encode(image, .init(quality: 90, progressive: true))
        let (clean, _) = try Self.bothThumbnails(bytes)
        var damaged = bytes
        let scan = Self.largestScan(bytes)
        // Bytes with no 0xFF, so the marker structure stays whole and only the coded bits are wrong.
        for index in scan.lowerBound + scan.count / 4..<scan.lowerBound + scan.count / 2 {
            damaged[index] = UInt8(truncatingIfNeeded: index &* 37) & 0x7F
        }
        let thumbnail = try Thumbnailer(Self.eighthThumbnail).thumbnail(data: Data(damaged))
        #expect(thumbnail.pixels == clean.pixels)
        #expect(thumbnail.metadata.warnings.isEmpty)
        // Asked to read the whole source, the thumbnail sees the damage, as verification always does.
        var whole = Self.eighthThumbnail
        whole.decodesWholeSource = true
        #expect(throws: ImageProcessingError.self) { try Thumbnailer(whole).thumbnail(data: Data(damaged)) }
        #expect(throws: ImageDecodingError.self) { try Image.verify(data: Data(damaged)) }
    }

    @Test func aTruncatedFileStillFailsAsBefore() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        let scan = Self.largestScan(bytes)
        let cut = Array(bytes[..<(scan.lowerBound + scan.count / 2)])
        #expect(try Self.filtered(cut) == nil)
        let expected = try #require(
            throws: ImageProcessingError.self,
            performing: {
                var whole = Self.eighthThumbnail
                whole.decodesWholeSource = true
                return try Thumbnailer(whole).thumbnail(data: Data(cut))
            })
        #expect(throws: expected) { try Thumbnailer(Self.eighthThumbnail).thumbnail(data: Data(cut)) }
        // Lenient, the same picture and the same warnings as the whole decode.
        let (shown, whole) = try Self.bothThumbnails(cut, strictness: .lenient)
        #expect(shown.pixels == whole.pixels)
        #expect(shown.metadata.warnings == whole.metadata.warnings && !shown.metadata.warnings.isEmpty)
    }

    @Test func filesTheFilterDoesNotFollowAreDecodedWhole() throws {
        let image = Self.detailed()
        let progressive = try Fixtures.encode(image, .init(quality: 90, progressive: true))
        let baseline = try Fixtures.encode(image, .init(quality: 90))
        #expect(try Self.filtered(baseline) == nil)
        // Junk between the first two segments: libjpeg's own warning, through the whole decode.
        var junk = progressive
        junk.insert(contentsOf: [0x12, 0x34], at: 4 + (Int(progressive[4]) << 8 | Int(progressive[5])))
        #expect(try Self.filtered(junk) == nil)
        let (shown, whole) = try Self.bothThumbnails(junk, strictness: .lenient)
        #expect(shown.pixels == whole.pixels)
        #expect(shown.metadata.warnings == whole.metadata.warnings && !shown.metadata.warnings.isEmpty)
        // Not every component is DC only: nothing to filter.
        #expect(progressive.withUnsafeBytes { ProgressiveJPEGScanFilter.droppingScans([:], in: $0) } == nil)
    }

    @Test(
        .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"),
        arguments: ["kodim01", "kodim05", "kodim13", "kodim20", "kodim23"])
    func photographsGiveTheWholeDecodesThumbnail(_ name: String) throws {
        let photo = try Image(contentsOfFile: Corpora.path("kodak", "\(name).png"))
        for sample in try Self.progressiveSamples(photo) {
            #expect(try Self.filtered(sample.bytes) != nil)
            let (shown, whole) = try Self.bothThumbnails(sample.bytes)
            #expect(shown.pixels == whole.pixels, "\(name) \(sample.name)")
        }
    }

    /// Whether a 2/8 decode leaves `scan` out: a last-bit AC refinement of luma (component 1 in these files).
    static func isLastBitRefinement(_ scan: ScanHeader) -> Bool {
        scan.spectralStart > 0 && scan.high > 0 && scan.low == 0 && scan.components == [1]
    }

    @Test func theQuarterDecodeLeavesOutOnlyTheLastBitOfLuma() throws {
        for sample in try Self.progressiveSamples(Self.detailed()) {
            let filtered = try #require(try Self.filtered(sample.bytes, numerator: 2), "\(sample.name)")
            let before = Self.scans(sample.bytes)
            let expected = before.filter {
                !Self.isLastBitRefinement($0)
            }
            let after = Self.scans(filtered)
            #expect(expected.count < before.count, "\(sample.name): nothing to leave out")
            #expect(after.count == expected.count, "\(sample.name)")
            for (kept, original) in zip(after, expected) {
                #expect(kept.components == original.components && kept.spectralStart == original.spectralStart)
                #expect(kept.high == original.high && kept.low == original.low)
                #expect(
                    filtered[kept.data] == sample.bytes[original.data], "\(sample.name): a kept scan's data changed")
            }
        }
    }

    @Test func theQuarterThumbnailIsWithinAHairOfTheWholeDecodes() throws {
        for sample in try Self.progressiveSamples(Self.detailed()) {
            let (shown, whole) = try Self.bothThumbnails(sample.bytes, options: Self.quarterThumbnail)
            #expect(shown.width == 63 && shown.height == 42)
            let similarity = shown.psnr(whole)
            #expect(similarity >= 45, "\(sample.name): \(similarity) dB")
            #expect(shown.metadata.warnings.isEmpty)
        }
    }

    @Test func damageInALastBitScanCannotChangeTheQuarterThumbnail() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        let (clean, _) = try Self.bothThumbnails(bytes, options: Self.quarterThumbnail)
        let scan = try #require(Self.scans(bytes).last { Self.isLastBitRefinement($0) })
        var damaged = bytes
        // Bytes with no 0xFF, so the marker structure stays whole and only the coded bits are wrong.
        for index in scan.data.lowerBound + scan.data.count / 4..<scan.data.lowerBound + scan.data.count / 2 {
            damaged[index] = UInt8(truncatingIfNeeded: index &* 37) & 0x7F
        }
        let thumbnail = try Thumbnailer(Self.quarterThumbnail).thumbnail(data: Data(damaged))
        #expect(thumbnail.pixels == clean.pixels)
        var whole = Self.quarterThumbnail
        whole.decodesWholeSource = true
        #expect(throws: ImageProcessingError.self) { try Thumbnailer(whole).thumbnail(data: Data(damaged)) }
    }

    @Test func aFileCutInALastBitScanFailsAtTwoEighthsAsWhole() throws {
        let bytes = try Fixtures.encode(Self.detailed(), .init(quality: 90, progressive: true))
        let scan = try #require(Self.scans(bytes).last { Self.isLastBitRefinement($0) })
        let cut = Array(bytes[..<(scan.data.lowerBound + scan.data.count / 2)])
        #expect(try Self.filtered(cut, numerator: 2) == nil)
        var whole = Self.quarterThumbnail
        whole.decodesWholeSource = true
        let expected = try #require(
            throws: ImageProcessingError.self, performing: { try Thumbnailer(whole).thumbnail(data: Data(cut)) })
        #expect(throws: expected) { try Thumbnailer(Self.quarterThumbnail).thumbnail(data: Data(cut)) }
        let (shown, wholeLenient) = try Self.bothThumbnails(cut, options: Self.quarterThumbnail, strictness: .lenient)
        #expect(shown.pixels == wholeLenient.pixels)
        #expect(shown.metadata.warnings == wholeLenient.metadata.warnings && !shown.metadata.warnings.isEmpty)
    }

    /// Kodak photos as progressive q90 JPEGs thumbnailed at 2/8 (63 px: the decode three times the
    /// thumbnail, the least the scale rule keeps, and so where the last bit counts most): against a full
    /// decode resized with the floating-point Lanczos-3, within a quarter of a decibel of the whole decode's
    /// thumbnail and above 45 dB. At 4/8 nothing is left out.
    @Test(
        .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"),
        arguments: TestTimeLimit.isSanitized ? ["kodim13"] : ["kodim05", "kodim13", "kodim20"])
    func photographsAtTwoEighthsKeepTheirFidelity(_ name: String) throws {
        let photo = try Image(contentsOfFile: Corpora.path("kodak", "\(name).png"))
        for subsampling in [JPEGEncodeOptions.ChromaSubsampling.s420, .s444] {
            let bytes = try Fixtures.encode(
                photo, .init(quality: 90, progressive: true, chromaSubsampling: subsampling))
            #expect(try Self.filtered(bytes, numerator: 2) != nil)
            #expect(try Self.filtered(bytes, numerator: 4) == nil)
            let (shown, whole) = try Self.bothThumbnails(bytes, options: Self.quarterThumbnail)
            let reference = try Image(data: Data(bytes)).referenceResized(width: shown.width, height: shown.height)
            let (shownQuality, wholeQuality) = (shown.psnr(reference), whole.psnr(reference))
            #expect(shownQuality >= 45 && shownQuality >= wholeQuality - 0.25, "\(name) \(subsampling.rawValue)")
            print(
                "ProgressiveJPEGScanFilterTests: \(name) \(subsampling.rawValue) at 2/8: \(shownQuality) dB, whole decode \(wholeQuality) dB"
            )
        }
    }
}
