import Testing

@testable import PixpipeImage

/// Every codec's warning table, through the codec table: stable short codes named after the format.
@Suite("Warning tables")
struct WarningTableTests {
    @Test(
        "each codec's codes start with its format, and one code means one kind",
        arguments: ImageCodecs.all.map(\.format))
    func codesArePrefixedAndUnique(format: ImageFormat) throws {
        let codec = try #require(ImageCodecs.codec(for: format))
        var kinds: [String: DecodeWarning.Kind] = [:]
        for rule in codec.warningRules {
            #expect(rule.code.hasPrefix("\(format.rawValue)-"), "\(rule.code)")
            #expect(!rule.reason.isEmpty && !rule.libraryCode.isEmpty, "\(rule.code)")
            if let kind = kinds[rule.code] { #expect(kind == rule.kind, "\(rule.code) has two kinds") }
            kinds[rule.code] = rule.kind
        }
    }

    /// Built-in codecs only: a codec a library user registers reports warnings of its own making.
    @Test(
        "every decoding codec of the built-in table keeps a non-empty warning table",
        arguments: ImageCodecs.builtIn.filter(\.canDecode).map(\.format))
    func decodingCodecsHaveTables(format: ImageFormat) throws {
        let codec = try #require(ImageCodecs.codec(for: format))
        #expect(!codec.warningRules.isEmpty, "\(format)")
    }

    @Test("no code is in two tables, and the shared rows name no format")
    func codesAreUniqueAcrossTables() {
        let codes = ImageCodecs.all.flatMap { Set($0.warningRules.map(\.code)) } + SharedWarningTable.rows.map(\.code)
        #expect(Set(codes).count == codes.count)
        for rule in SharedWarningTable.rows {
            #expect(!ImageCodecs.all.contains { rule.code.hasPrefix("\($0.format.rawValue)-") }, "\(rule.code)")
            #expect(!rule.reason.isEmpty && !rule.libraryCode.isEmpty, "\(rule.code)")
        }
    }

    @Test("the rows users already read keep their codes and kinds")
    func codesUnchanged() {
        #expect(WebPWarningTable.rows.map(\.code) == ["webp-trailing-data", "webp-riff-size", "webp-truncated"])
        #expect(WebPWarningTable.rows.map(\.kind) == [.benign, .benign, .truncated])
        #expect(GIFWarningTable.rows.map(\.code) == ["gif-missing-trailer", "gif-truncated", "gif-damaged-data"])
        #expect(GIFWarningTable.rows.map(\.kind) == [.benign, .truncated, .corrupt])
        #expect(
            AVIFWarningTable.rows.map(\.code) == [
                "avif-clap-ignored", "avif-strict-only", "avif-last-box-cut", "avif-animation-cut",
                "avif-animation-damaged",
            ])
        #expect(AVIFWarningTable.rows.map(\.kind) == [.benign, .benign, .truncated, .truncated, .corrupt])
        #expect(HEIFWarningTable.rows.map(\.code) == ["heif-exif-orientation-ignored"])
        #expect(JXLWarningTable.rows.map(\.code) == ["jxl-animation-cut", "jxl-animation-damaged"])
        #expect(SharedWarningTable.rows.map(\.code) == ["color-profile-ignored"])
        #expect(SharedWarningTable.rows.allSatisfy { $0.kind == .benign })
    }

    @Test("a warning a decoder builds from an error takes its row from the error's kind")
    func warningsFromErrors() {
        let cut = ImageDecodingError.truncated(format: .gif, reason: "cut")
        let damaged = ImageDecodingError.corrupt(format: .gif, reason: "bad code")
        #expect(GIFWarningTable.warning(for: cut).code == "gif-truncated")
        #expect(GIFWarningTable.warning(for: damaged).code == "gif-damaged-data")
        #expect(GIFWarningTable.warning(for: .tooManyFrames(count: 2, limit: 1)).code == "gif-damaged-data")
        #expect(AVIFWarningTable.warning(after: cut, frame: 2).code == "avif-animation-cut")
        #expect(AVIFWarningTable.warning(after: damaged, frame: 2).code == "avif-animation-damaged")
        #expect(JXLWarningTable.warning(after: cut, frame: 2).code == "jxl-animation-cut")
    }
}
