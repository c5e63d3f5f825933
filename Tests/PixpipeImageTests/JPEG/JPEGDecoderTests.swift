import Foundation
import Testing

@testable import PixpipeImage

@Suite struct JPEGDecoderTests {
    typealias Fixtures = JPEGTestImages

    static let lenient = DecodeOptions(strictness: .lenient)

    // MARK: malformed input

    @Test func emptyInputIsTruncated() {
        #expect(throws: ImageDecodingError.truncated(format: .jpeg, reason: "empty input")) {
            try Fixtures.decode([])
        }
        #expect(throws: ImageDecodingError.unsupportedFormat(recognized: .empty)) { try Image(data: Data()) }
    }

    @Test func startOfImageAloneIsTruncatedInBothModes() {
        for options in [DecodeOptions(), Self.lenient] {
            #expect {
                try Fixtures.decode([0xFF, 0xD8], options)
            } throws: { error in
                guard case .truncated(.jpeg, _) = error as? ImageDecodingError else { return false }
                return true
            }
        }
    }

    @Test func wrongMagicIsCorrupt() {
        #expect {
            try Fixtures.decode(Array("GIF89a, not a JPEG".utf8))
        } throws: { error in
            guard case .corrupt(.jpeg, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("Not a JPEG file")
        }
    }

    @Test(arguments: [3, 20, 100])
    func truncationInsideTheHeaderFailsEvenWhenLenient(length: Int) throws {
        let bytes = try Fixtures.encode(Fixtures.colour())
        let cut = Array(bytes.prefix(length))
        #expect(throws: ImageDecodingError.self) { try Fixtures.decode(cut, Self.lenient) }
        #expect(throws: ImageDecodingError.self) { try Fixtures.decode(cut) }
    }

    @Test(arguments: [0.1, 0.5, 0.9])
    func truncationInsideTheScanIsStrictErrorOrLenientWarning(fraction: Double) throws {
        let bytes = try Fixtures.encode(Fixtures.colour(width: 96, height: 96), .init(quality: 95))
        let scan = try #require(Fixtures.scanDataOffset(in: bytes))
        let cut = Array(bytes.prefix(scan + Int(Double(bytes.count - scan) * fraction)))
        #expect {
            try Fixtures.decode(cut)
        } throws: { error in
            guard case .truncated(.jpeg, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("Premature end")
        }
        let image = try Fixtures.decode(cut, Self.lenient)
        #expect(image.width == 96 && image.height == 96)
        #expect(image.metadata.warnings.contains { $0.kind == .truncated })
    }

    @Test func extraneousBytesBetweenHeaderSegmentsAreABenignWarningInBothModes() throws {
        var bytes = try Fixtures.encode(Fixtures.colour())
        let quantization = try #require(Fixtures.markerOffset(0xDB, in: bytes))
        bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: quantization)  // between two header segments
        let clean = try Fixtures.decode(try Fixtures.encode(Fixtures.colour())).pixels
        let strict = try Fixtures.decode(bytes)
        #expect(strict.metadata.warnings.map(\.kind) == [.benign])
        #expect(strict.metadata.warnings.first?.message.contains("extraneous bytes") == true)
        #expect(strict.pixels == clean)
        let image = try Fixtures.decode(bytes, Self.lenient)
        #expect(image.metadata.warnings.map(\.kind) == [.benign])
        #expect(image.pixels == clean)
    }

    @Test func bogusHuffmanTableIsCorruptInBothModes() throws {
        var bytes = try Fixtures.encode(Fixtures.colour())
        let table = try #require(Fixtures.markerOffset(0xC4, in: bytes))
        for index in 0..<16 { bytes[table + 5 + index] = 0xFF }  // code counts summing far over 256
        for options in [DecodeOptions(), Self.lenient] {
            #expect {
                try Fixtures.decode(bytes, options)
            } throws: { error in
                guard case .corrupt(.jpeg, let reason) = error as? ImageDecodingError else { return false }
                return reason.contains("Huffman")
            }
        }
    }

    @Test func twelveBitAndLosslessFramesAreUnsupported() throws {
        let bytes = try Fixtures.encode(Fixtures.gray())
        let sof = try #require(Fixtures.frameOffset(in: bytes))
        var twelveBit = bytes
        twelveBit[sof + 4] = 12
        var lossless = bytes
        lossless[sof + 1] = 0xC3
        for variant in [twelveBit, lossless] {
            #expect {
                try Fixtures.decode(variant)
            } throws: { error in
                guard case .unsupportedFeature(.jpeg, _) = error as? ImageDecodingError else { return false }
                return true
            }
        }
    }

    // MARK: limits and scaling

    @Test func hugeDeclaredSizeIsRefusedBeforeAllocating() throws {
        let bytes = Fixtures.patchingSize(
            try Fixtures.encode(Fixtures.gray(width: 16, height: 16)), width: 60000, height: 60000)
        let info = try Fixtures.info(bytes)
        #expect(info.width == 60000 && info.height == 60000)
        #expect(
            throws: ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: DecodeOptions.defaultPixelLimit)
        ) {
            try Fixtures.decode(bytes)
        }
        // At 1/8 the output (7500 x 7500) is under the limit: the decode gets as far as the missing data.
        #expect {
            try Fixtures.decode(bytes, DecodeOptions(jpegScale: .eighths(1)))
        } throws: { error in
            guard case .corrupt(.jpeg, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("premature end of data segment")
        }
    }

    @Test func progressiveCoefficientMemoryIsCapped() throws {
        let small = try Fixtures.encode(Fixtures.gray(width: 16, height: 16), .init(progressive: true))
        let bytes = Fixtures.patchingSize(small, width: 60000, height: 60000)
        // A progressive decode keeps every coefficient of the full-size image, whatever the scale.
        // The 7500 x 7500 output is under the limit; 7.2 GB of coefficients are not.
        #expect(throws: ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: 60_000_000)) {
            try Fixtures.decode(bytes, DecodeOptions(pixelLimit: 60_000_000, jpegScale: .eighths(1)))
        }
    }

    /// Coefficient arrays of 4 MB and more get huge-page advice once libjpeg has allocated them (2400 x 1800
    /// 4:2:0: 8.6 MB for luma). Progressive and baseline files of one encoder carry the same coefficients, so
    /// the decodes match exactly; cut files fail or warn as always and leave the next decode unharmed.
    @Test func largeProgressiveFilesDecodeAsTheirBaselineTwin() throws {
        let noise = TestImages.noise(width: 2400, height: 1800, format: .rgb8)
        let baseline = try Fixtures.encode(noise, .init(quality: 90))
        let progressive = try Fixtures.encode(noise, .init(quality: 90, progressive: true))
        #expect(try Fixtures.decode(progressive).pixels == Fixtures.decode(baseline).pixels)
        let cut = Array(progressive.prefix(progressive.count * 2 / 3))
        #expect(throws: ImageDecodingError.self) { try Fixtures.decode(cut) }
        let lenient = try Fixtures.decode(cut, Self.lenient)
        #expect(lenient.metadata.warnings.contains { $0.kind == .truncated })
        #expect(
            try Fixtures.decode(progressive, DecodeOptions(jpegScale: .eighths(2))).pixels
                == Fixtures.decode(baseline, DecodeOptions(jpegScale: .eighths(2))).pixels)
    }

    @Test(arguments: 1...8)
    func eighthsScaleTheOutput(numerator: Int) throws {
        let bytes = try Fixtures.encode(Fixtures.colour(width: 100, height: 60))
        let image = try Fixtures.decode(bytes, DecodeOptions(jpegScale: .eighths(numerator)))
        #expect(image.width == (100 * numerator + 7) / 8)
        #expect(image.height == (60 * numerator + 7) / 8)
    }

    @Test(arguments: [0, 9, -1])
    func invalidEighthsFallBackToFullSize(numerator: Int) throws {
        let bytes = try Fixtures.encode(Fixtures.colour(width: 100, height: 60))
        let image = try Fixtures.decode(bytes, DecodeOptions(jpegScale: .eighths(numerator)))
        #expect(image.width == 100 && image.height == 60)
    }

    @Test func atLeastPicksTheSmallestSufficientScale() throws {
        let cases: [(target: (Int, Int), numerator: Int)] = [
            ((30, 20), 3), ((13, 1), 1), ((14, 1), 2), ((1, 1), 1), ((100, 60), 8), ((101, 10), 8), ((50, 30), 4),
            ((51, 1), 5),
        ]
        for (target, numerator) in cases {
            let scale = DecodeOptions.JPEGScale.atLeast(width: target.0, height: target.1)
            #expect(scale.numerator(width: 100, height: 60) == numerator, "target \(target)")
        }
        let bytes = try Fixtures.encode(Fixtures.colour(width: 100, height: 60))
        let image = try Fixtures.decode(bytes, DecodeOptions(jpegScale: .atLeast(width: 30, height: 20)))
        #expect(image.width == 38 && image.height == 23)
    }

    // MARK: colour spaces and metadata

    @Test func adobeCMYKBecomesRGB() throws {
        // Adobe stores CMYK inverted: 255 means no ink. Cyan ink 100%, no black: press cyan through the generic
        // CMYK profile (see CMYKProfileTests), a blue-green far from the black that uninverted samples would give.
        let width = 16
        let cmyk = [UInt8]((0..<(width * width)).flatMap { _ in [0, 255, 255, 255] as [UInt8] })
        let writer = try JPEGWriter(
            width: width, height: width, space: .cmyk, options: .init(quality: 100, chromaSubsampling: .s444))
        try cmyk.withUnsafeBytes { try writer.writeRows($0, stride: width * 4, count: width) }
        let bytes = [UInt8](try writer.finish())
        #expect(Fixtures.markerOffset(0xEE, in: bytes) != nil, "Adobe APP14 marker")
        let image = try Fixtures.decode(bytes)
        #expect(image.pixelFormat == .rgb8)
        #expect(image.pixels[0] <= 40 && (100...215).contains(image.pixels[1]) && image.pixels[2] >= 180)
        #expect(Set(stride(from: 0, to: image.pixels.count, by: 3).map { image.pixels[$0 + 1] }).count <= 2)
    }

    @Test func cmykConversionHandlesBothConventions() {
        // C, M, Y, K = 0, 128, 255, 64 as ink amounts.
        let plain: [UInt8] = [0, 128, 255, 64]
        let inverted: [UInt8] = plain.map { 255 - $0 }
        var out = [UInt8](repeating: 0, count: 3)
        let expected: [UInt8] = [191, 95, 0]  // (255 - ink) * (255 - 64) / 255, rounded
        for (samples, isInverted) in [(plain, false), (inverted, true)] {
            samples.withUnsafeBytes { source in
                out.withUnsafeMutableBytes {
                    CMYKConverter.convert(source, into: $0, pixelCount: 1, inverted: isInverted)
                }
            }
            #expect(out == expected)
        }
    }

    @Test func infoReadsTheHeaderOnly() throws {
        var image = Fixtures.gray(width: 40, height: 30)
        image.metadata.exif = EXIFReaderTests.tiff(orientation: 8, bigEndian: false)
        image.metadata.orientation = .left
        image.metadata.iccProfile = [1, 2, 3, 4]
        let bytes = try Fixtures.encode(image, .init(progressive: true))
        // Truncated right after the header: info still works, decoding would not.
        let headerOnly = Array(bytes.prefix(try #require(Fixtures.scanDataOffset(in: bytes))))
        let info = try Fixtures.info(headerOnly)
        #expect(info.format == .jpeg && info.width == 40 && info.height == 30)
        #expect(info.pixelFormat == .gray8)
        #expect(info.metadata.isInterlaced && info.metadata.sourceBitDepth == 8)
        #expect(info.metadata.orientation == .left)
        #expect(info.metadata.iccProfile == [1, 2, 3, 4])
        #expect(try Image.info(data: Data(bytes)) == info)
    }
}
