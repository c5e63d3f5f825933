import Foundation
import Testing

@testable import PixpipeImage

/// libwebp's test vectors: every file decodes to exactly the samples `dwebp -pam` gives (RGBA).
@Suite(.enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct WebPConformanceTests {
    static let references = SampleReference.load("webp")

    @Test func theCorpusIsPresent() {
        #expect(Self.references.count >= 100)
    }

    @Test(arguments: references)
    func decodesToTheReferenceSamples(_ reference: SampleReference) throws {
        let path = Corpora.path("webp", reference.file)
        guard reference.digest != "error" else {
            #expect(throws: ImageDecodingError.self) { try Image(contentsOfFile: path) }
            return
        }
        let image = try Image(contentsOfFile: path)
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(image.metadata.sourceFormat == .webp)
        #expect(image.metadata.warnings.isEmpty)
        #expect(sampleDigest(image, channels: reference.channels, bitDepth: reference.bitDepth) == reference.digest)
    }

    @Test(arguments: references.filter { $0.digest != "error" }.prefix(40))
    func theHeaderAgreesWithTheDecode(_ reference: SampleReference) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("webp", reference.file)))
        let info = try Image.info(data: data)
        let image = try Image(data: data)
        #expect(info.format == .webp)
        #expect(info.width == image.width && info.height == image.height)
        // A lossless header without alpha may still decode transparent pixels (see WebPStillDecoder).
        #expect(info.pixelFormat == image.pixelFormat || reference.file == "bad_palette_index.webp")
        #expect(info.animation == nil)
        #expect(try Image.verify(data: data).width == image.width)
    }
}
