import Foundation
import Testing

@testable import PixpipeImage

@Suite("JPEG XL lossless JPEG recompression and reconstruction")
struct JPEGXLTests {
    static func source() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Corpora.path("jxl", "gen-jpeg-source-q90.jpg")))
    }

    @Test("the corpus's recompressed file gives back its source JPEG byte for byte", .enabled(if: Corpora.isAvailable))
    func corpusReconstruction() throws {
        let jxl = try JXLReference.data("gen-jpeg-recompressed.jxl")
        #expect(JPEGXL.hasReconstructionData(jxl))
        #expect(try JPEGXL.reconstructedJPEG(from: jxl) == (try Self.source()))
    }

    @Test("jpg -> jxl -> jpg is identical, the JPEG XL file smaller", .enabled(if: Corpora.isAvailable))
    func roundTrip() throws {
        let jpeg = try Self.source()
        let jxl = try JPEGXL.recompressing(jpeg: jpeg)
        #expect(ImageFormat.sniff(jxl) == .jxl)
        #expect(jxl.count < jpeg.count * 9 / 10, "\(jxl.count) vs \(jpeg.count)")
        #expect(try JPEGXL.reconstructedJPEG(from: jxl) == jpeg)
        // Its pixels decode as any JPEG XL's, the size of the JPEG.
        let image = try Image(data: jxl)
        let original = try Image(data: jpeg)
        #expect(image.width == original.width && image.height == original.height)
    }

    @Test("a small JPEG made here round-trips too")
    func madeHere() throws {
        let jpeg = try JXLTestFiles.gradient().encoded(as: .jpeg(quality: 85))
        #expect(try JPEGXL.reconstructedJPEG(from: try JPEGXL.recompressing(jpeg: jpeg)) == jpeg)
    }

    @Test("a non-JPEG input and a file without reconstruction data are typed errors")
    func failures() throws {
        #expect(throws: ImageEncodingError.notJPEG) { try JPEGXL.recompressing(jpeg: Data([0x89, 0x50, 0x4E, 0x47])) }
        let pixels = try JXLTestFiles.still()
        #expect(!JPEGXL.hasReconstructionData(pixels))
        #expect(throws: ImageDecodingError.noJPEGReconstructionData) { try JPEGXL.reconstructedJPEG(from: pixels) }
        #expect(ImageEncodingError.notJPEG.shortName == "jxl-not-jpeg")
        #expect(ImageDecodingError.noJPEGReconstructionData.shortName == "jxl-no-jpeg-reconstruction")
        // The pixel limit applies both ways, from the headers: recompressing is an encode of a refused
        // source, rebuilding the JPEG a decode.
        let jpeg = try JXLTestFiles.gradient().encoded(as: .jpeg(quality: 85))
        let limited = ImageDecodingError.tooLarge(width: 64, height: 48, limit: 100)
        #expect(throws: ImageEncodingError.source(limited)) { try JPEGXL.recompressing(jpeg: jpeg, pixelLimit: 100) }
        #expect(ImageEncodingError.source(limited).shortName == "too-large-image")
        let jxl = try JPEGXL.recompressing(jpeg: jpeg)
        #expect(throws: limited) { try JPEGXL.reconstructedJPEG(from: jxl, pixelLimit: 100) }
    }
}
