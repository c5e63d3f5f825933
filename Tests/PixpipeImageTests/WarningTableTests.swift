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

    @Test("the rows of WebP, GIF and AVIF keep the codes users already read")
    func codesUnchanged() {
        #expect(WebPWarningTable.rows.map(\.code) == ["webp-trailing-data", "webp-riff-size", "webp-truncated"])
        #expect(WebPWarningTable.rows.map(\.kind) == [.benign, .benign, .truncated])
        #expect(GIFWarningTable.rows.map(\.code) == ["gif-missing-trailer"])
        #expect(AVIFWarningTable.rows.map(\.code) == ["avif-clap-ignored", "avif-strict-only"])
        #expect(AVIFWarningTable.rows.allSatisfy { $0.kind == .benign })
    }

    @Test("every decoding codec of the built-in table keeps a warning table")
    func builtInCodecsHaveTables() {
        for format in [ImageFormat.png, .jpeg, .webp, .gif, .avif] {
            #expect(ImageCodecs.codec(for: format)?.warningRules.isEmpty == false, "\(format)")
        }
    }
}
