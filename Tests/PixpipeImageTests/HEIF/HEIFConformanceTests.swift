import Foundation
import Testing

@testable import PixpipeImage

/// Every row of `corpora/heif/references.tsv`: libheif's transformed output (`heif-convert`, and its own
/// 8-bit conversion for deeper sources, `libheif-rgb8`), compared after ``Image/applyingOrientation()``.
@Suite("HEIF conformance (corpora/heif, libheif's references)")
struct HEIFConformanceTests {
    static let references = SampleReference.load("heif")

    @Test("the corpus is present with its references", .enabled(if: Corpora.isAvailable))
    func corpusPresent() {
        #expect(Self.references.count >= 38)
    }

    @Test("samples equal libheif's", .enabled(if: Corpora.isAvailable), arguments: references)
    func matchesReference(_ reference: SampleReference) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", reference.file)))
        if reference.columns["width"] == "error" {
            // libheif refuses these: a cut file, the 'mini' box (no 'ftyp': not recognised as HEIF at all),
            // and ISO/IEC 23001-17 'unci' items that libheif 1.15 does not know (their 'pitm' names no image).
            let expected: ImageDecodingError.Case =
                switch reference.file {
                case "gen-truncated.heic": .truncated
                case "libheif-lightning_mini.heif": .unsupportedFormat
                default: .corrupt
                }
            #expect(throws: ImageDecodingError.self) { try Image(data: data) }
            do {
                _ = try Image(data: data)
            } catch {
                #expect(error.case == expected, "\(error)")
            }
            return
        }
        #expect(ImageFormat.sniff(data) == .heif)
        let options = DecodeOptions(keeps16Bit: reference.bitDepth == 16)
        let index = Int(reference.columns["index"] ?? "1") ?? 1
        let image: Image
        if index == 1 {
            image = try Image(data: data, options: options)
        } else {
            let pages = try HEIFCodec().frameDecoder(data, options: options)
            var page: AnimationFrame?
            for _ in 0..<index { page = try pages.nextFrame() }
            image = try #require(page).image
        }
        let upright = image.applyingOrientation()
        #expect(upright.width == reference.width)
        #expect(upright.height == reference.height)
        // 16-bit references are heif-convert's v << (16 - depth), which the decoder gives too; monochrome
        // sources decode as RGB, as libheif converts them.
        #expect(sampleDigest(upright, channels: reference.channels, bitDepth: reference.bitDepth) == reference.digest)
    }

    @Test("the Exif orientation inside a HEIC is not applied on top of irot", .enabled(if: Corpora.isAvailable))
    func exifOrientationIsInformative() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", "gen-orientation6.heic")))
        let image = try Image(data: data)
        #expect(image.metadata.orientation == .up)
        #expect(image.metadata.warnings.map(\.code) == ["heif-exif-orientation-ignored"])
        #expect(
            image.metadata.exif?.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) == true
                || image.metadata.exif?.starts(with: [0x49, 0x49, 0x2A, 0x00]) == true)
        #expect(image.width == 256 && image.height == 384)
    }

    @Test("info reads images, thumbnails, depth and colour without decoding", .enabled(if: Corpora.isAvailable))
    func info() throws {
        func info(_ name: String) throws -> ImageInfo {
            try Image.info(data: Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", name))))
        }
        let two = try info("gen-two-images-q60.heic")
        #expect(two.imageCount == 2)
        let thumbnail = try info("gen-thumbnail-q60.heic")
        #expect(thumbnail.auxiliaryImages == [AuxiliaryImage(kind: .thumbnail, type: "thmb", width: 84, height: 128)])
        let deep = try info("gen-10bit-420-q70.heic")
        #expect(deep.pixelFormat == PixelFormat(layout: .rgb, bitsPerSample: 16) && deep.metadata.sourceBitDepth == 10)
        let alpha = try info("gen-alpha-q70.heic")
        #expect(alpha.pixelFormat == .rgba8)
        // The same file with its alpha image's type made a depth map's: no alpha, and info names the depth map.
        let alphaFile = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", "gen-alpha-q70.heic")))
        let auxiliaryType = Data("urn:mpeg:hevc:2015:auxid:1".utf8)
        let typeRange = try #require(alphaFile.range(of: auxiliaryType))
        var depthFile = alphaFile
        depthFile[typeRange.upperBound - 1] = UInt8(ascii: "2")
        let depth = try Image.info(data: depthFile)
        #expect(depth.pixelFormat == .rgb8)
        #expect(depth.auxiliaryImages == [AuxiliaryImage(kind: .depth, type: "auxl", width: 768, height: 512)])
        // A colr box of type nclx (BT.709 primaries, sRGB transfer, identity matrix, full range).
        let nclx = try info("gen-lossless-gbr444.heic")
        #expect(
            nclx.metadata.cicp
                == ColorCICP(colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, fullRange: true))
        let p3 = try info("gen-icc-displayp3-q80.heic")
        #expect(
            p3.metadata.iccProfile
                == Array(try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", "display-p3.icc")))))
        let phone = try info("nuke-img_751.heic")
        #expect(phone.metadata.xmp?.isEmpty == false)
        #expect(phone.metadata.exif?.isEmpty == false)
    }

    @Test("every truncation and random damage gives an image or a typed error", .enabled(if: Corpora.isAvailable))
    func truncationAndDamage() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("heif", "libheif-colors-with-alpha.heic")))
        var refused = 0
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 97)) {
            do {
                _ = try Image(data: data.prefix(length))
            } catch {
                refused += 1
                #expect(
                    [.truncated, .corrupt, .unsupportedFormat, .unsupportedFeature].contains(error.case), "\(error)")
            }
        }
        #expect(refused > 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            var damaged = data
            for _ in 0..<4 {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            do {
                _ = try Image(data: damaged)
            } catch {
                #expect(error.case != .unreadable)
            }
        }
    }
}
