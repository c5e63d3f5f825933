import Foundation
import Testing

@testable import PixpipeImage

@Suite(.enabled(if: JPEGCorpus.isAvailable, "PIXPIPE_CORPORA is not set"))
struct JPEGConformanceTests {
    /// 8-bit files of libjpeg-turbo's suite: baseline 4:2:0, ISLOW and arithmetic coding.
    @Test(arguments: ["testorig", "testimgint", "testimgari"])
    func decodesExactlyLikeLibjpegTurbo(name: String) throws {
        let image = try Image(contentsOfFile: JPEGCorpus.path("libjpeg-turbo", "\(name).jpg"))
        let reference = try JPEGCorpus.readPPM(try JPEGCorpus.data("libjpeg-turbo-reference", "\(name).ppm"))
        #expect(image.pixelFormat == .rgb8)
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(image.pixels == reference.samples)
        #expect(image.metadata.sourceFormat == .jpeg && image.metadata.sourceBitDepth == 8)
        #expect(image.metadata.warnings.isEmpty)
    }

    @Test func twelveBitIsAnUnsupportedFeature() throws {
        let data = try JPEGCorpus.data("libjpeg-turbo", "testorig12.jpg")
        for options in [DecodeOptions(), DecodeOptions(strictness: .lenient)] {
            #expect {
                try Image(data: data, options: options)
            } throws: { error in
                guard case .unsupportedFeature(.jpeg, let feature) = error as? ImageDecodingError else { return false }
                return feature.contains("12")
            }
        }
        #expect(throws: ImageDecodingError.self) { try Image.info(data: data) }
    }

    @Test func reducedSizeDecodeOfTheReferenceFile() throws {
        let data = try JPEGCorpus.data("libjpeg-turbo", "testorig.jpg")
        let image = try Image(data: data, options: DecodeOptions(jpegScale: .atLeast(width: 100, height: 60)))
        // 227 x 149: 4/8 gives 114 x 75, the smallest scale covering 100 x 60.
        #expect(image.width == 114 && image.height == 75)
    }

    /// Every sample is stored in one EXIF orientation; 0 means no tag.
    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func reportsTheEXIFOrientation(shape: String, tag: Int) throws {
        let image = try Image(contentsOfFile: JPEGCorpus.path("exif-orientation", "\(shape)_\(tag).jpg"))
        let expected = Orientation(rawValue: tag) ?? .up
        #expect(image.metadata.orientation == expected)
        #expect(image.metadata.exif != nil || tag == 0)
        let upright = shape == "Landscape" ? (1800, 1200) : (1200, 1800)
        let stored = expected.swapsDimensions ? (upright.1, upright.0) : upright
        #expect(image.width == stored.0 && image.height == stored.1)
        let info = try Image.info(contentsOfFile: JPEGCorpus.path("exif-orientation", "\(shape)_\(tag).jpg"))
        #expect(info.width == image.width && info.height == image.height && info.metadata.orientation == expected)
    }
}
