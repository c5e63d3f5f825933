import Foundation
import Testing

@Suite("pixpipe: help, version and usage errors")
struct ToolUsageTests {
    let pixpipe: PixpipeExecutable

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
    }

    @Test("--version prints the version on stdout")
    func version() throws {
        let result = try pixpipe.run(["--version"])
        #expect(result.status == 0)
        #expect(result.outputText == "pixpipe 0.1.0\n")
        #expect(result.errors.isEmpty)
    }

    @Test("The tool's help lists the commands, on stdout", arguments: [["--help"], ["-h"], ["help"]])
    func toolHelp(arguments: [String]) throws {
        let result = try pixpipe.run(arguments)
        #expect(result.status == 0)
        #expect(result.outputText.contains("Usage: pixpipe COMMAND"))
        #expect(result.outputText.contains("  info "))
        #expect(result.outputText.contains("  convert "))
        #expect(result.errors.isEmpty)
    }

    @Test(
        "Every command has help, reached three ways",
        arguments: [
            ["info", "--help"], ["info", "-h"], ["help", "info"], ["convert", "--help"], ["help", "convert"],
            ["convert", "a.png", "--help"],
        ])
    func commandHelp(arguments: [String]) throws {
        let result = try pixpipe.run(arguments)
        let command = arguments.first { $0 == "info" || $0 == "convert" } ?? ""
        #expect(result.status == 0)
        #expect(result.outputText.hasPrefix("Usage: pixpipe \(command) [OPTIONS]"))
        #expect(result.outputText.contains("--help"))
        #expect(result.errors.isEmpty)
    }

    @Test("No arguments prints the help on stderr with status 2")
    func noArguments() throws {
        let result = try pixpipe.run([])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("Usage: pixpipe COMMAND"))
    }

    @Test(
        "Usage errors exit 2 with the problem and a hint on stderr, nothing on stdout",
        arguments: [
            (["convrt"], "unknown command 'convrt' (did you mean 'convert'?)", "pixpipe --help"),
            (["--verison"], "unknown option '--verison' (did you mean '--version'?)", "pixpipe --help"),
            (["help", "nope"], "unknown command 'nope'", "pixpipe --help"),
            (["info"], "missing argument FILE", "pixpipe info --help"),
            (["info", "--jsn", "a"], "unknown option '--jsn' (did you mean '--json'?)", "pixpipe info --help"),
            (["convert", "a.png"], "missing argument OUT", "pixpipe convert --help"),
            (
                ["convert", "a", "b.png", "c.jpg"],
                "several inputs need an output folder, not the image file name 'c.jpg'",
                "pixpipe convert --help"
            ),
            (
                ["convert", "--quality", "101", "a", "b.jpg"], "expected an integer from 1 to 100",
                "pixpipe convert --help"
            ),
            (["convert", "--quality"], "option '--quality' needs a value", "pixpipe convert --help"),
            (["convert", "--format=gif", "a", "b"], "invalid value 'gif' for '--format'", "pixpipe convert --help"),
            (["convert", "a.png", "b.bmp"], "cannot write 'b.bmp': BMP: not supported", "pixpipe convert --help"),
            (["convert", "a.png", "b.xyz"], "cannot tell the output format from 'b.xyz'", "pixpipe convert --help"),
            (["convert", "a.png", "-"], "option '--format' is required", "pixpipe convert --help"),
            (["convert", "--max-pixels", "-1", "a", "b.png"], "invalid value '-1'", "pixpipe convert --help"),
        ])
    func usageErrors(arguments: [String], message: String, hint: String) throws {
        let result = try pixpipe.run(arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains(message))
        #expect(result.errors.contains("Run '\(hint)"))
    }

    @Test("A usage error is reported before any file is touched")
    func usageErrorWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let result = try pixpipe.run(["convert", "--bogus", "in.png", "out.png"], in: directory.url)
        #expect(result.status == 2)
        #expect(try directory.fileNames().isEmpty)
    }
}
