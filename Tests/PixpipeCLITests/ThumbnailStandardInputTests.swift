import Foundation
import Pixpipe
import Testing

/// `pixpipe thumbnail -`: the image read from standard input.
@Suite("pixpipe thumbnail -", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct ThumbnailStandardInputTests {
    let tool = PixpipeExecutable.built ?? PixpipeExecutable(url: URL(fileURLWithPath: "/nonexistent"))

    @Test("Standard input gives DIR/stdin.EXT, written again on the next run with other bytes")
    func standardInputGivesStdinFile() throws {
        let output = try TemporaryDirectory()
        let photo = try TestImages.gradient(width: 400, height: 200, layout: .rgb).encoded(as: .jpeg)
        let result = try tool.run(
            ["thumbnail", "-", "--out", output.url.path, "--size", "100", "--json"], input: photo)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.outputText.contains("\"input\":\"-\""))
        let info = try Image.info(contentsOfFile: output.path("stdin.jpg"))
        #expect(info.width == 100 && info.height == 50)
        // Another image on the next run replaces it: standard input is no file to call done.
        let logo = try TestImages.png(TestImages.gradient(width: 60, height: 60))
        let again = try tool.run(
            ["thumbnail", "-", "--out", output.url.path, "--size", "100", "--format", "jpeg"], input: logo)
        #expect(again.status == 0)
        #expect(try Image.info(contentsOfFile: output.path("stdin.jpg")).width == 60)
    }

    @Test("Bytes that are no image on standard input fail with not-an-image")
    func garbageOnStandardInput() throws {
        let output = try TemporaryDirectory()
        let result = try tool.run(["thumbnail", "-", "--out", output.url.path, "--json"], input: Data("hello".utf8))
        #expect(result.status == 1)
        #expect(result.outputText.contains("not-an-image"))
    }
}
