import Foundation
import Pixpipe
import Testing

/// A HEIC whose grid declares 256 x 256 tiles making a 65,535 x 65,535 image: a few hundred bytes of
/// boxes, refused from the header before any tile is decoded.
@Suite("HEIF bombs", .serialized)
struct HEIFBombTests {
    static let timeLimit: Duration = ChildProcessUsage.isSanitized ? .seconds(20) : .seconds(2)
    static let memoryLimit = 100 << 20

    /// One ISO-BMFF box.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// A full box: version and flags before the payload.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).suffix(3)) + payload)
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// The crafted file: a primary `grid` item (1) over one `hvc1` tile item (2), with the grid's data and
    /// the tile's (bogus) data in `mdat`.
    static var gridBomb: [UInt8] {
        let side = 65_535
        let gridData: [UInt8] = [0, 1, 255, 255] + be32(side) + be32(side)
        let tileData = [UInt8](repeating: 0, count: 16)
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        func meta(mdatPayloadOffset: Int) -> [UInt8] {
            let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            let pitm = fullBox("pitm", be16(1))
            let infe1 = fullBox("infe", version: 2, be16(1) + be16(0) + Array("grid".utf8) + [0])
            let infe2 = fullBox("infe", version: 2, be16(2) + be16(0) + Array("hvc1".utf8) + [0])
            let iinf = fullBox("iinf", be16(2) + infe1 + infe2)
            let iref = fullBox("iref", box("dimg", be16(1) + be16(1) + be16(2)))
            let iloc = fullBox(
                "iloc",
                [0x44, 0x00] + be16(2)
                    + be16(1) + be16(0) + be16(1) + be32(mdatPayloadOffset) + be32(gridData.count)
                    + be16(2) + be16(0) + be16(1) + be32(mdatPayloadOffset + gridData.count) + be32(tileData.count))
            let ipco = box(
                "ipco",
                fullBox("ispe", be32(side) + be32(side)) + fullBox("ispe", be32(256) + be32(256))
                    // A minimal HEVC configuration (no parameter sets): libheif wants one on every tile.
                    + box(
                        "hvcC",
                        [
                            1, 0x01, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x5D, 0xF0, 0x00, 0xFC, 0xFD, 0xF8, 0xF8, 0, 0,
                            0x0F, 0,
                        ]))
            let ipma = fullBox("ipma", be32(2) + be16(1) + [1, 0x81] + be16(2) + [2, 0x82, 0x83])
            let iprp = box("iprp", ipco + ipma)
            return fullBox("meta", hdlr + pitm + iinf + iref + iloc + iprp)
        }
        let metaLength = meta(mdatPayloadOffset: 0).count
        let mdat = box("mdat", gridData + tileData)
        return ftyp + meta(mdatPayloadOffset: ftyp.count + metaLength + 8) + mdat
    }

    @Test("a grid declaring 65,535 x 65,535 pixels in 256 x 256 tiles is refused from its header")
    func gridBombIsRefused() throws {
        let bomb = Self.gridBomb
        #expect(bomb.count < 400)
        #expect(ImageFormat.sniff(bomb) == .heif)
        #expect(throws: ImageDecodingError.self) { try Image(data: Data(bomb)) }
        do {
            _ = try Image(data: Data(bomb))
        } catch {
            guard case .tooLarge = error else {
                Issue.record("expected tooLarge, got \(error)")
                return
            }
        }
        let executable = try #require(PixpipeExecutable.built, "the pixpipe executable is not built")
        let directory = try TemporaryDirectory()
        let input = try directory.write(Data(bomb), to: "grid-bomb.heic")
        let usage = try ChildProcessUsage.measure(executable.url, ["convert", input, directory.path("out.ppm")])
        #expect(usage.status == 1)
        #expect(usage.errors.contains("too large"), "\(usage.errors)")
        #expect(usage.cpuTime < Self.timeLimit, "took \(usage.cpuTime) of CPU time")
        if !ChildProcessUsage.isSanitized {
            #expect(usage.peakResidentBytes < Self.memoryLimit, "peaked at \(usage.peakResidentBytes) bytes")
        }
    }
}
