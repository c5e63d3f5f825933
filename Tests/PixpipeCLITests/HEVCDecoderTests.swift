import Foundation
import PixpipeTestSupport
import Testing

/// HEIC's HEVC images decode through libavcodec when it is installed, and through libheif's libde265 with
/// `PIXPIPE_HEVC=libde265`: the same pixels either way, and libavcodec is loaded only for a HEIC.
@Suite("HEVC decoding through libavcodec or libde265")
struct HEVCDecoderTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    static var corpusFiles: [String] {
        guard Corpora.isAvailable,
            let names = try? FileManager.default.contentsOfDirectory(atPath: Corpora.path("heif"))
        else { return [] }
        return names.filter { $0.hasSuffix(".heic") || $0.hasSuffix(".heif") }.sorted()
    }

    @Test("every corpus HEIF converts to the same 16-bit PNG with either decoder", .enabled(if: Corpora.isAvailable))
    func samePixels() throws {
        let files = Self.corpusFiles
        #expect(files.count >= 34)
        let directory = try TemporaryDirectory()
        var decoded = 0
        for file in files {
            let input = Corpora.path("heif/\(file)")
            let fast = directory.path("\(file)-libavcodec.png")
            let reference = directory.path("\(file)-libde265.png")
            let first = try pixpipe.run(["convert", input, fast, "--keep-16-bit"])
            let second = try pixpipe.run(
                ["convert", input, reference, "--keep-16-bit"], environment: ["PIXPIPE_HEVC": "libde265"])
            #expect(first.status == second.status, "\(file): \(first.errors) / \(second.errors)")
            guard first.status == 0, second.status == 0 else { continue }
            decoded += 1
            let fastBytes = try Data(contentsOf: URL(fileURLWithPath: fast))
            let referenceBytes = try Data(contentsOf: URL(fileURLWithPath: reference))
            #expect(!fastBytes.isEmpty && fastBytes == referenceBytes, "\(file) differs")
        }
        // All but the cut file, the 'mini' file and the 'unci' items libheif 1.15 refuses.
        #expect(decoded >= files.count - 6)
    }

    /// The shared libraries `pixpipe` loaded while running `arguments`, from the dynamic loader's own log.
    private func librariesLoaded(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let result = try pixpipe.run(arguments, environment: environment.merging(["LD_DEBUG": "libs"]) { $1 })
        #expect(result.status == 0, "\(result.errors.suffix(2000))")
        return result.errors
    }

    @Test("libavcodec is loaded for a HEIC's HEVC and never for other formats", .enabled(if: Corpora.isAvailable))
    func loadedOnFirstUse() throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            let png = try directory.write(TestImages.png(TestImages.gradient(width: 16, height: 16)), to: "in.png")
            let other = try librariesLoaded(["convert", png, directory.path("out.jpg")])
            #expect(!other.contains("libavcodec"))
            #expect(!other.contains("libheif"))

            let heic = Corpora.path("heif/gen-8bit-420-q50.heic")
            let fast = try librariesLoaded(["convert", heic, directory.path("fast.png")])
            #expect(fast.contains("libavcodec.so"))

            let reference = try librariesLoaded(
                ["convert", heic, directory.path("reference.png")], environment: ["PIXPIPE_HEVC": "libde265"])
            #expect(reference.contains("libheif.so"))
            #expect(!reference.contains("libavcodec"))
        #endif
    }
}
