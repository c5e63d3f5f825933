import Testing

@testable import PixpipeCLI

@Suite("Command-line parser")
struct CommandLineParserTests {
    let parser = CommandLineParser(options: [
        .value("quality", short: "q", placeholder: "N", help: "Quality."),
        .value("format", short: "f", placeholder: "FORMAT", help: "Format."),
        .flag("progressive", short: "p", help: "Progressive."),
        .flag("strip", short: "s", help: "Strip."),
    ])

    @Test(
        "Every spelling of a value option gives the same value",
        arguments: [
            ["--quality", "90", "in"], ["--quality=90", "in"], ["-q", "90", "in"], ["-q90", "in"],
            ["in", "--quality", "90"], ["--quality", "10", "--quality", "90", "in"],
        ])
    func valueSpellings(arguments: [String]) throws {
        let parsed = try parser.parse(arguments)
        #expect(parsed.value("quality") == "90")
        #expect(parsed.positionals == ["in"])
    }

    @Test("Switches, clustered short switches and a short option ending a cluster")
    func clusters() throws {
        let parsed = try parser.parse(["-spf", "png", "a", "b"])
        #expect(parsed.isSet("strip"))
        #expect(parsed.isSet("progressive"))
        #expect(parsed.value("format") == "png")
        #expect(parsed.positionals == ["a", "b"])
        #expect(!parsed.isSet("help"))
    }

    @Test("A lone dash is positional and a double dash ends the options")
    func dashes() throws {
        let parsed = try parser.parse(["-", "--", "--strip", "-q"])
        #expect(parsed.positionals == ["-", "--strip", "-q"])
        #expect(!parsed.isSet("strip"))
        #expect(parsed.value("quality") == nil)
    }

    @Test("An empty inline value is a value, and a value may start with a dash")
    func unusualValues() throws {
        #expect(try parser.parse(["--format="]).value("format") == "")
        #expect(try parser.parse(["--quality", "-5"]).value("quality") == "-5")
    }

    @Test("Help is accepted by every parser, long and short")
    func help() throws {
        #expect(try parser.parse(["--help"]).isSet("help"))
        #expect(try parser.parse(["-h"]).isSet("help"))
    }

    @Test(
        "Misuse is a typed usage error",
        arguments: [
            (["--qualty", "5"], UsageError.unknownOption("--qualty", suggestion: "--quality")),
            (["--prog"], UsageError.unknownOption("--prog", suggestion: "--progressive")),
            (["--zzzzzz"], UsageError.unknownOption("--zzzzzz", suggestion: nil)),
            (["-x"], UsageError.unknownOption("-x", suggestion: nil)),
            (["-quality", "5"], UsageError.unknownOption("-quality", suggestion: "--quality")),
            (["--quality"], UsageError.missingValue(option: "--quality")),
            (["-q"], UsageError.missingValue(option: "-q")),
            (["--strip=yes"], UsageError.unexpectedValue(option: "--strip", value: "yes")),
        ])
    func misuse(arguments: [String], expected: UsageError) {
        #expect(throws: expected) { try parser.parse(arguments) }
    }

    @Test("Integer values are range-checked")
    func integers() throws {
        #expect(try parser.parse(["-q", "100"]).integer("quality", in: 1...100) == 100)
        #expect(try parser.parse([]).integer("quality", in: 1...100) == nil)
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "0", expected: "an integer from 1 to 100"))
        {
            try parser.parse(["-q", "0"]).integer("quality", in: 1...100)
        }
        #expect(
            throws: UsageError.invalidValue(option: "--quality", value: "high", expected: "an integer from 1 to 100")
        ) {
            try parser.parse(["-q", "high"]).integer("quality", in: 1...100)
        }
    }

    @Test("Positional arguments are counted against their names")
    func positionals() throws {
        #expect(try parser.parse(["a", "b"]).positionals(named: ["IN", "OUT"]) == ["a", "b"])
        #expect(throws: UsageError.missingArgument("OUT")) {
            try parser.parse(["a"]).positionals(named: ["IN", "OUT"])
        }
        #expect(throws: UsageError.unexpectedArgument("c")) {
            try parser.parse(["a", "b", "c"]).positionals(named: ["IN", "OUT"])
        }
    }

    @Test("Spelling suggestions catch typos and unique prefixes, not unrelated words")
    func suggestions() {
        #expect(SpellingSuggestion.closest(to: "convrt", among: ["info", "convert"]) == "convert")
        #expect(SpellingSuggestion.closest(to: "inf", among: ["info", "convert"]) == "info")
        #expect(SpellingSuggestion.closest(to: "resize", among: ["info", "convert"]) == nil)
        #expect(SpellingSuggestion.editDistance("kitten", "sitting") == 3)
    }
}
