import Foundation
import Testing

@testable import PixpipeImage

/// JPEG's warning table: anomalies built from a clean file decode in strict mode to the clean pixels with
/// their benign warning; anomalies that lose pixels still fail in strict mode.
@Suite struct JPEGWarningTableTests {
    typealias Fixtures = JPEGTestImages

    static let clean: [UInt8] = try! Fixtures.encode(Fixtures.colour())
    static let cleanPixels: [UInt8] = try! Fixtures.decode(clean).pixels
    static let lenient = DecodeOptions(strictness: .lenient)
    /// Junk without 0xFF, so it cannot read as a marker.
    static let junk = [UInt8](repeating: 0x5A, count: 24)

    /// `bytes` with `junk` inserted at `offset`.
    static func inserting(_ junk: [UInt8], at offset: Int, in bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.insert(contentsOf: junk, at: offset)
        return bytes
    }

    @Test(
        arguments: [("DQT", 0xDB), ("APP0", 0xE0), ("DHT", 0xC4), ("SOF0", 0xC0), ("SOS", 0xDA)] as [(String, UInt8)])
    func junkBeforeAHeaderMarkerIsBenignInStrictMode(name: String, marker: UInt8) throws {
        let offset = try #require(Fixtures.markerOffset(marker, in: Self.clean), "\(name)")
        let bytes = Self.inserting(Self.junk, at: offset, in: Self.clean)
        let image = try Fixtures.decode(bytes)
        #expect(image.pixels == Self.cleanPixels, "\(name)")
        #expect(image.metadata.warnings.map(\.code) == ["jpeg-extraneous-bytes"], "\(name)")
        #expect(image.metadata.warnings.allSatisfy { $0.kind == .benign && $0.message.contains("extraneous") })
        // The header holds the junk, so the header alone reports it.
        #expect(try Fixtures.info(bytes).metadata.warnings.map(\.code) == ["jpeg-extraneous-bytes"])
    }

    @Test func junkBeforeEOIIsBenignInStrictMode() throws {
        let bytes = Self.inserting(Self.junk, at: Self.clean.count - 2, in: Self.clean)
        let image = try Fixtures.decode(bytes)
        #expect(image.pixels == Self.cleanPixels)
        #expect(image.metadata.warnings.map(\.code) == ["jpeg-extraneous-bytes"])
        #expect(image.metadata.warnings.first?.kind == .benign)
        // Past the scan: the header cannot see it.
        #expect(try Fixtures.info(bytes).metadata.warnings.isEmpty)
        // Verification (a 1/8 decode) reports the same warning.
        let info = try bytes.withUnsafeBytes { raw in try JPEGCodec().verify(raw, options: DecodeOptions()) }
        #expect(info.metadata.warnings.map(\.code) == ["jpeg-extraneous-bytes"])
    }

    @Test func aBrokenICCSegmentIsBenignInStrictMode() throws {
        var source = Fixtures.colour()
        source.metadata.iccProfile = [UInt8](repeating: 7, count: 300)
        let withProfile = try Fixtures.encode(source)
        let expected = try Fixtures.decode(withProfile)
        #expect(expected.metadata.iccProfile == source.metadata.iccProfile)
        let app2 = try #require(Fixtures.markerOffset(0xE2, in: withProfile))
        var broken = withProfile
        broken[app2 + 4 + 12] = 0  // sequence number 0: "ICC_PROFILE\0", then seq_no, then count
        let image = try Fixtures.decode(broken)
        #expect(image.pixels == expected.pixels)
        #expect(image.metadata.iccProfile == nil)
        #expect(image.metadata.warnings.map(\.code) == ["jpeg-bad-icc-marker"])
        #expect(image.metadata.warnings.first?.kind == .benign)
        #expect(try Fixtures.info(broken).metadata.warnings.map(\.code) == ["jpeg-bad-icc-marker"])
    }

    @Test func truncationAtManyOffsetsFailsInStrictMode() throws {
        let scan = try #require(Fixtures.scanDataOffset(in: Self.clean))
        let offsets =
            Array(stride(from: 2, to: scan, by: 37)) + Array(stride(from: scan, to: Self.clean.count, by: 97))
            + [Self.clean.count - 2, Self.clean.count - 1]
        for length in offsets {
            let cut = Array(Self.clean.prefix(length))
            #expect(throws: ImageDecodingError.self, "cut at \(length)") { try Fixtures.decode(cut) }
        }
        let lenient = try Fixtures.decode(Array(Self.clean.prefix(scan + 200)), Self.lenient)
        #expect(lenient.metadata.warnings.contains { $0.code == "jpeg-premature-end" && $0.kind == .truncated })
    }

    @Test func junkBeforeARestartMarkerFailsInStrictMode() throws {
        var options = JPEGEncodeOptions()
        options.restartRows = 1
        let restarted = try Fixtures.encode(Fixtures.colour(), options)
        let scan = try #require(Fixtures.scanDataOffset(in: restarted))
        let restart = try #require(
            (scan..<(restarted.count - 1)).first { restarted[$0] == 0xFF && (0xD0...0xD7).contains(restarted[$0 + 1]) })
        let bytes = Self.inserting(Self.junk, at: restart, in: restarted)
        #expect {
            try Fixtures.decode(bytes)
        } throws: { error in
            guard case .corrupt(.jpeg, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("extraneous bytes before marker 0xd")
        }
        let image = try Fixtures.decode(bytes, Self.lenient)
        #expect(image.metadata.warnings.map(\.code).contains("jpeg-junk-before-restart"))
        #expect(image.metadata.warnings.allSatisfy { $0.losesPixels })
    }

    @Test func aFlippedEntropyCodedByteThatLibjpegNoticesFailsInStrictMode() throws {
        let scan = try #require(Fixtures.scanDataOffset(in: Self.clean))
        var noticed = 0
        for offset in stride(from: scan + 10, to: Self.clean.count - 10, by: 23) {
            var bytes = Self.clean
            bytes[offset] ^= 0xA5
            if bytes[offset] == 0xFF || bytes[offset - 1] == 0xFF { continue }  // a marker, not damage
            guard let image = try? Fixtures.decode(bytes, Self.lenient),
                image.metadata.warnings.contains(where: { $0.losesPixels })
            else { continue }
            noticed += 1
            #expect(throws: ImageDecodingError.self, "flip at \(offset)") { try Fixtures.decode(bytes) }
        }
        #expect(noticed > 0)
    }

    @Test func everyRowHasAUniqueCodeAndAReason() {
        let rules = JPEGWarningTable.rows.map(\.rule) + [JPEGWarningTable.unknown, JPEGWarningTable.damagedTail]
        #expect(Set(rules.map(\.code)).count == rules.count)
        #expect(rules.allSatisfy { $0.code.hasPrefix("jpeg-") && !$0.reason.isEmpty && !$0.libraryCode.isEmpty })
    }
}
