import Foundation
import PixpipeLocking
import Testing

// End to end on the shared corpora through the real codecs and orientation transforms.
@Suite("pixpipe on the corpora", .enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct CorpusTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// The upright picture as PPM, from standard output.
    private func upright(_ name: String, _ extra: [String] = []) throws -> NetpbmFile {
        let result = try pixpipe.run(
            ["convert", Corpora.path("exif-orientation/\(name).jpg"), "-", "-f", "ppm"] + extra)
        #expect(result.status == 0, "\(name): \(result.errors)")
        return try #require(NetpbmFile(result.output))
    }

    /// The mean absolute difference of two same-sized pictures over a 48x48 grid of sample points.
    private func meanDifference(_ a: NetpbmFile, _ b: NetpbmFile) -> Double {
        var total = 0
        var count = 0
        for row in 0..<48 {
            for column in 0..<48 {
                let x = column * (a.width - 1) / 47
                let y = row * (a.height - 1) / 47
                for channel in 0..<3 {
                    total += abs(a.sample(x: x, y: y, channel: channel) - b.sample(x: x, y: y, channel: channel))
                }
                count += 3
            }
        }
        return Double(total) / Double(count)
    }

    /// `Landscape_1` and `Portrait_1` as PPM, converted once for all the orientation tests.
    private static let references = Locked<[String: NetpbmFile]>([:])

    private func reference(_ shape: String) throws -> NetpbmFile {
        if let cached = Self.references.withLock({ $0[shape] }) { return cached }
        let converted = try upright("\(shape)_1")
        Self.references.withLock { $0[shape] = converted }
        return converted
    }

    @Test("Every orientation comes out as the same upright picture", arguments: ["Landscape", "Portrait"], 2...8)
    func orientationApplied(shape: String, orientation: Int) throws {
        let reference = try reference(shape)
        let turned = try upright("\(shape)_\(orientation)")
        #expect((turned.width, turned.height) == (reference.width, reference.height))
        #expect(meanDifference(turned, reference) < 4, "\(shape)_\(orientation) differs from \(shape)_1")
    }

    @Test("--no-orient keeps the stored pixel order")
    func noOrient() throws {
        let stored = try upright("Landscape_6", ["--no-orient"])
        #expect((stored.width, stored.height) == (1200, 1800))
    }

    @Test("info --json reports orientation and ICC; failures do not stop the others")
    func info() throws {
        let files = [
            Corpora.path("exif-orientation/Landscape_6.jpg"), Corpora.path("pngsuite/basn6a16.png"),
            Corpora.path("pngsuite/xcrn0g04.png"), Corpora.path("libjpeg-turbo/testorig12.jpg"),
        ]
        let result = try pixpipe.run(["info", "--json"] + files)
        #expect(result.status == 1)
        let records = try result.outputLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["path"] as? String } == files)
        #expect(records[0]["orientation"] as? Int == 6)
        #expect(records[0]["width"] as? Int == 1200)
        #expect(records[1]["bitDepth"] as? Int == 16)
        #expect(records[1]["channels"] as? Int == 4)
        #expect(records[2]["errorKind"] != nil)
        #expect(records[3]["errorKind"] as? String == "unsupported-image")
    }

    @Test("An ICC profile is carried over by default and dropped by --strip")
    func strip() throws {
        let directory = try TemporaryDirectory()
        let input = Corpora.path("libjpeg-turbo/vgl_5674_0098.png")  // carries a 3024-byte profile
        #expect(try pixpipe.run(["convert", input, directory.path("kept.jpg")]).status == 0)
        #expect(try pixpipe.run(["convert", "--strip", input, directory.path("stripped.png")]).status == 0)
        let info = try pixpipe.run([
            "info", "--json", input, directory.path("kept.jpg"), directory.path("stripped.png"),
        ])
        let sizes = try info.outputLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["iccProfileBytes"] as? Int
        }
        #expect(sizes == [3024, 3024, 0])
    }
}
