/// Splits a command's arguments into options and positional arguments, against the options it declares.
///
/// Accepted spellings, as in most Unix tools:
/// - `--name`, `--name value`, `--name=value`;
/// - `-n`, `-n value`, `-nvalue`, and clustered switches `-ab`;
/// - `-` alone is a positional argument (standard input or output);
/// - `--` ends the options: everything after it is positional, even when it starts with a dash.
///
/// ```swift
/// let parser = CommandLineParser(options: [.flag("json", help: "JSON Lines.")])
/// let parsed = try parser.parse(["--json", "a.png"])   // parsed.isSet("json") == true
/// ```
struct CommandLineParser: Sendable {
    /// The options the command accepts; `--help` is always added.
    let options: [OptionSpec]

    /// A parser for `options` plus `-h, --help`.
    init(options: [OptionSpec]) {
        self.options = options.contains(.help) ? options : options + [.help]
    }

    /// Parses `arguments` (without the command name).
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        func nextValue(for option: OptionSpec, spelledAs spelling: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw .missingValue(option: spelling) }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                parsed.positionals += arguments[(index + 1)...]
                break
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                let option = try long(name, spelledAs: "--\(name)")
                if option.takesValue, let inlineValue {
                    parsed.record(option, value: inlineValue)
                } else if option.takesValue {
                    parsed.record(option, value: try nextValue(for: option, spelledAs: "--\(name)"))
                } else if let inlineValue {
                    throw .unexpectedValue(option: "--\(name)", value: inlineValue)
                } else {
                    parsed.record(option, value: nil)
                }
            } else if argument.hasPrefix("-") && argument.count > 1 {
                try rejectLongNameAfterSingleDash(argument)
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    let option = try short(letter, in: argument)
                    guard option.takesValue else {
                        parsed.record(option, value: nil)
                        continue
                    }
                    // The rest of the cluster is the value (`-q90`), or else the next argument (`-q 90`).
                    let value = letters.isEmpty ? try nextValue(for: option, spelledAs: "-\(letter)") : String(letters)
                    parsed.record(option, value: value)
                    break
                }
            } else {
                parsed.positionals.append(argument)
            }
            index += 1
        }
        return parsed
    }

    private func long(_ name: String, spelledAs spelling: String) throws(UsageError) -> OptionSpec {
        if let option = options.first(where: { $0.name == name }) { return option }
        let suggestion = SpellingSuggestion.closest(to: name, among: options.map(\.name))
        throw .unknownOption(spelling, suggestion: suggestion.map { "--\($0)" })
    }

    private func short(_ letter: Character, in argument: String) throws(UsageError) -> OptionSpec {
        if let option = options.first(where: { $0.shortName == letter }) { return option }
        throw .unknownOption("-\(letter)", suggestion: nil)
    }

    /// A single dash before a long name (`-quality 90`) is a common slip; read as short options it would
    /// silently mean `-q uality`, so it is refused with a pointer to the long spelling.
    private func rejectLongNameAfterSingleDash(_ argument: String) throws(UsageError) {
        let name = String(argument.dropFirst().prefix { $0 != "=" })
        guard name.count > 1, options.contains(where: { $0.name == name }) else { return }
        throw .unknownOption(argument, suggestion: "--\(name)")
    }
}
