import Foundation
import Pixpipe
import Testing

/// The limits are one option group: every decoding command describes and checks them alike.
@Suite("Limit options", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct LimitOptionsTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    /// The `--help` line of `option` in `command`'s help, its spaces collapsed (each command aligns its
    /// own column).
    func helpLine(_ command: String, _ option: String) throws -> String? {
        let help = try tool.run([command, "--help"])
        return help.outputText.split(separator: "\n").first { $0.contains("--\(option) ") }.map {
            $0.split(separator: " ").joined(separator: " ")
        }
    }

    @Test("--max-pixels and --max-frames read the same in convert, thumbnail and fetch; --max-bytes per scope")
    func sameHelp() throws {
        for option in ["max-pixels", "max-frames"] {
            let lines = try ["convert", "thumbnail", "fetch"].map { try helpLine($0, option) }
            #expect(lines.allSatisfy { $0 != nil } && Set(lines).count == 1, "\(lines)")
        }
        #expect(try helpLine("convert", "max-bytes") == helpLine("thumbnail", "max-bytes"))
        #expect(try helpLine("fetch", "max-bytes")?.contains("50000000") == true)
        #expect(try helpLine("thumbnail", "max-source-pixels") != nil)
        #expect(try helpLine("convert", "max-source-pixels") == nil)
    }

    @Test("0 lifts an input's byte limit but is refused for a download's body; bad values are usage errors")
    func zeroAndBadValues() throws {
        let folder = try TemporaryDirectory()
        let input = try folder.write(TestImages.png(TestImages.gradient(width: 8, height: 8)), to: "in.png")
        #expect(try tool.run(["convert", input, folder.path("out.png"), "--max-bytes", "0"]).status == 0)
        #expect(try tool.run(["convert", input, folder.path("out.png"), "--max-bytes", "10"]).status == 1)
        #expect(try tool.run(["convert", input, folder.path("out.png"), "--max-pixels", "-1"]).status == 2)
        let list = try folder.write(Data("http://127.0.0.1:9/a.png\n".utf8), to: "list.txt")
        #expect(try tool.run(["fetch", list, "--out", folder.path("d"), "--max-bytes", "0"]).status == 2)
        #expect(try tool.run(["thumbnail", input, "--out", folder.path("t"), "--max-frames", "x"]).status == 2)
    }
}
