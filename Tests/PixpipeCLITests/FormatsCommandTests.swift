import Foundation
import PixpipeImage
import Testing

/// `pixpipe formats` lists the codec table, as a user runs it.
@Suite("formats command")
struct FormatsCommandTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// One `--json` line.
    struct Record: Decodable, Equatable {
        let format: String
        let decode: Bool
        let encode: Bool
        let animation: Bool
        let lossless: Bool
        let quality: Bool
        let progressive: Bool
        let sixteenBit: Bool
        let extensions: [String]
        let mediaTypes: [String]
    }

    /// The built-in table the child process sees: this process may also hold codecs other tests registered.
    static var builtIn: [ImageFormat] {
        let registered = Set(ImageCodecs.registeredFormats)
        return ImageFormat.all.filter { !registered.contains($0) }
    }

    @Test("--json gives one object per format of the codec table, with what it can do")
    func json() throws {
        let result = try pixpipe.run(["formats", "--json"])
        #expect(result.status == 0)
        let records = try result.outputLines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        #expect(records.map(\.format) == Self.builtIn.map(\.rawValue))
        let jpeg = try #require(records.first { $0.format == "jpeg" })
        #expect(jpeg.decode && jpeg.encode && jpeg.quality && jpeg.progressive && !jpeg.animation)
        #expect(jpeg.extensions.first == "jpg" && jpeg.extensions.contains("jpeg"))
        #expect(jpeg.mediaTypes.contains("image/jpeg"))
        let webp = try #require(records.first { $0.format == "webp" })
        #expect(webp.animation && webp.lossless)
        let ppm = try #require(records.first { $0.format == "ppm" })
        #expect(!ppm.decode && ppm.encode && ppm.sixteenBit && !jpeg.sixteenBit)
    }

    @Test("convert's help names the formats of --progressive and --keep-16-bit from the codec table")
    func convertHelp() throws {
        let help = try pixpipe.run(["convert", "--help"]).outputText
        let records = try pixpipe.run(["formats", "--json"]).outputLines.map {
            try JSONDecoder().decode(Record.self, from: Data($0.utf8))
        }
        /// "a, b or c", as the help text lists names.
        func listed(_ names: [String]) -> String {
            names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.first ?? ""
        }
        let progressive = listed(records.filter(\.progressive).map(\.format))
        let sixteenBit = listed(records.filter(\.sixteenBit).map(\.format))
        #expect(progressive == "png or jpeg")
        #expect(sixteenBit.hasPrefix("png, ") && sixteenBit.hasSuffix("ppm or pam"))
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(\(progressive))"))
        #expect(flat.contains("(\(sixteenBit))"))
    }

    @Test(
        "--quality's help names the default of every format that takes a quality, from the codec table",
        arguments: ["convert", "thumbnail"])
    func qualityHelp(command: String) throws {
        let help = try pixpipe.run([command, "--help"]).outputText
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let line = try #require(
            flat.components(separatedBy: "Quality of lossy formats").dropFirst().first?.components(separatedBy: ").")
                .first)
        let lossy = Self.builtIn.filter { $0.canEncode && $0.usesQuality }
        #expect(lossy.count >= 2)
        for format in lossy {
            let quality = try #require(format.defaultQuality)
            #expect(line.contains("\(format.rawValue) \(quality)"), "\(format.rawValue) in: \(line)")
        }
        for format in Self.builtIn where !format.usesQuality {
            #expect(!line.contains(" \(format.rawValue) "), "\(format.rawValue) takes no quality: \(line)")
        }
    }

    @Test("the human lines name each format, its abilities and extensions")
    func human() throws {
        let result = try pixpipe.run(["formats"])
        #expect(result.status == 0)
        #expect(result.outputLines.count == Self.builtIn.count)
        let png = try #require(result.outputLines.first { $0.hasPrefix("png ") })
        #expect(png.contains("decode encode") && png.hasSuffix(".png"))
        let unexpected = try pixpipe.run(["formats", "extra"])
        #expect(unexpected.status != 0)
    }
}
