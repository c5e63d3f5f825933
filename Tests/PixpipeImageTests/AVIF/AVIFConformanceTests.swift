import Foundation
import Testing

@testable import PixpipeImage

/// One line of `corpora/avif/references.tsv`: avifdec's decode of a file at 8 or 16 bits, or `error`.
struct AVIFReference: Sendable, CustomStringConvertible {
    var file: String
    /// `nil` where avifdec refuses the file.
    var width: Int?
    var height: Int?
    var channels: Int
    var bitDepth: Int
    var sha256: String
    var sourceDepth: Int
    /// Whether libavif's strict checks accept the file.
    var strict: Bool

    var description: String { "\(file) @\(bitDepth)" }

    /// Every reference, or none when the corpora are not available.
    static let all: [AVIFReference] = {
        guard let text = try? String(contentsOfFile: Corpora.path("avif", "references.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            if fields[1] == "error" {
                return AVIFReference(
                    file: fields[0], width: nil, height: nil, channels: 0, bitDepth: Int(fields[2]) ?? 8, sha256: "",
                    sourceDepth: Int(fields[3]) ?? 8, strict: true)
            }
            guard fields.count >= 8 else { return nil }
            return AVIFReference(
                file: fields[0], width: Int(fields[1]), height: Int(fields[2]), channels: Int(fields[3]) ?? 0,
                bitDepth: Int(fields[4]) ?? 8, sha256: fields[5], sourceDepth: Int(fields[6]) ?? 8,
                strict: fields[7] == "yes")
        }
    }()

    /// The file's bytes.
    func data() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Corpora.path("avif", file))) }
}

/// Every reference is checked: the whole set, 4K files included, takes about 20 s in a debug build.
@Suite("AVIF conformance (corpora/avif, libavif's avifdec references)")
struct AVIFConformanceTests {
    @Test("the corpus is present with its references", .enabled(if: Corpora.isAvailable))
    func corpusPresent() {
        #expect(AVIFReference.all.count > 100)
    }

    @Test(
        "samples equal avifdec's, at 8 bits and at 16 bits for deeper sources",
        .enabled(if: Corpora.isAvailable), arguments: AVIFReference.all)
    func matchesReference(_ reference: AVIFReference) throws {
        let data = try reference.data()
        #expect(ImageFormat.sniff(data) == .avif)
        let options = DecodeOptions(keeps16Bit: reference.bitDepth == 16)
        guard let width = reference.width, let height = reference.height else {
            #expect(throws: ImageDecodingError.self) { try Image(data: data, options: options) }
            return
        }
        let image = try Image(data: data, options: options)
        #expect(image.width == width && image.height == height)
        #expect(image.pixelFormat.channels == reference.channels)
        #expect(image.pixelFormat.bitsPerSample == reference.bitDepth)
        #expect(image.metadata.sourceFormat == .avif)
        #expect(image.metadata.sourceBitDepth == reference.sourceDepth)
        // Files only libavif's strict checks refuse decode with a warning saying so, in strict mode too.
        #expect(image.metadata.warnings.isEmpty == reference.strict, "\(image.metadata.warnings)")
        #expect(SampleDigest.sha256(image) == reference.sha256)
    }

    @Test("a file avifdec refuses is refused with a typed error", .enabled(if: Corpora.isAvailable))
    func refusedFile() throws {
        let data = try Data(
            contentsOf: URL(
                fileURLWithPath: Corpora.path("avif", "Chimera_10bit_cropped_to_1920x1008_with_HDR_metadata.avif")))
        #expect(throws: ImageDecodingError.self) { try Image(data: data) }
        do {
            _ = try Image(data: data)
        } catch {
            #expect(error.case == .unsupportedFeature, "\(error)")
        }
        // The header alone is fine: info and the size are read without converting pixels.
        let info = try Image.info(data: data)
        #expect(info.width == 1920 && info.height == 1080 && info.metadata.sourceBitDepth == 10)
    }
}
