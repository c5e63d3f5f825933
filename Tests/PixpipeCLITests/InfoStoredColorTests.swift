import Foundation
import Testing

@testable import PixpipeImage

/// `info` on a CMYK JPEG: what the file holds (cmyk, 4 components) beside what decoding gives (rgb8).
@Suite(
    "pixpipe info stored colour", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct InfoStoredColorTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// A 16x16 Adobe CMYK JPEG (inverted samples, APP14 marker), written by the library's CMYK writer.
    static func cmykJPEG() throws -> Data {
        let width = 16
        let cmyk = [UInt8]((0..<(width * width)).flatMap { _ in [0, 255, 255, 255] as [UInt8] })
        let writer = try JPEGWriter(width: width, height: width, space: .cmyk, options: .init(quality: 90))
        try cmyk.withUnsafeBytes { try writer.writeRows($0, stride: width * 4, count: width) }
        return try writer.finish()
    }

    @Test func cmykJPEGReportsStoredAndDecoded() throws {
        let folder = try TemporaryDirectory()
        let cmyk = try folder.write(try Self.cmykJPEG(), to: "print.jpg")
        let rgb = try folder.write(
            try TestImages.gradient(width: 16, height: 16, layout: .rgb).encoded(as: .jpeg), to: "web.jpg")

        let text = try tool.run(["info", cmyk, rgb])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.outputLines.first?.contains("rgb8 (stored cmyk, 4 components)") == true, "\(text.outputText)")
        #expect(text.outputLines.last?.contains("stored") == false, "\(text.outputText)")

        let json = try tool.run(["info", "--json", cmyk, rgb])
        #expect(json.status == 0, "\(json.errors)")
        let records = try json.outputLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records[0]["storedColorModel"] as? String == "cmyk")
        #expect(records[0]["storedComponents"] as? Int == 4)
        #expect(records[0]["pixelFormat"] as? String == "rgb8")
        #expect(records[0]["channels"] as? Int == 3)
        #expect(records[1]["storedColorModel"] as? String == "ycbcr")
        #expect(records[1]["storedComponents"] as? Int == 3)
    }
}
