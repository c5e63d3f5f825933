import Foundation
import Testing

@Suite("pixpipe convert: failures leave nothing behind")
struct ConvertFailureTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    /// A PNG signature and the start of an IHDR chunk, then nothing: no decoder can make an image of it.
    static let truncatedPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48])

    @Test("Undecodable input: status 1, the reason on stderr, no output and no temporary file")
    func corruptInput() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(Self.truncatedPNG, to: "in.png")
        let result = try pixpipe.run(["convert", input, directory.path("out.jpg")])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("pixpipe: convert: \(input): "))
        #expect(try directory.fileNames() == ["in.png"])
    }

    @Test("A failed conversion leaves an existing output untouched")
    func existingOutputKept() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(Data("garbage".utf8), to: "in.png")
        let output = try directory.write(Data("previous".utf8), to: "out.png")
        let result = try pixpipe.run(["convert", input, output])
        #expect(result.status == 1)
        #expect(result.errors.contains("text file, not an image"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        #expect(try directory.fileNames() == ["in.png", "out.png"])
    }

    @Test("A missing input is reported with status 1")
    func missingInput() throws {
        let directory = try TemporaryDirectory()
        let result = try pixpipe.run(["convert", directory.path("none.png"), directory.path("out.png")])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot read"))
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("Undecodable standard input writes nothing to standard output")
    func corruptStandardInput() throws {
        let result = try pixpipe.run(["convert", "-", "-", "--format", "ppm"], input: Self.truncatedPNG)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("pixpipe: convert: -: "))
    }
}
