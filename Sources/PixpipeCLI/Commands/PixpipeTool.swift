import Pixpipe

/// The `pixpipe` tool: picks the command named by the first argument, handles help, version and usage errors.
struct PixpipeTool: Sendable {
    /// The version `pixpipe --version` prints.
    static let version = HTTPClient.Configuration.pixpipeVersion

    /// The commands, in the order `pixpipe --help` lists them.
    let commands: [any Command] = [
        InfoCommand(), ConvertCommand(), ThumbnailCommand(), FetchCommand(), VerifyCommand(), FormatsCommand(),
    ]
    /// Where output and messages go.
    let console: Console

    /// A tool writing to `console`.
    init(console: Console = .standard) {
        self.console = console
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    func run(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else {
            console.errorText(HelpFormatter.toolHelp(commands: commands))
            return .usage
        }
        switch first {
        case "-h", "--help":
            console.printLine(HelpFormatter.toolHelp(commands: commands), terminator: "")
            return .success
        case "--version":
            console.printLine("pixpipe \(Self.version)")
            return .success
        case "help":
            return help(topic: arguments.dropFirst().first)
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                return reportUsage(unknownCommandOrOption(first), command: nil)
            }
            return run(command, arguments: Array(arguments.dropFirst()))
        }
    }

    private func run(_ command: any Command, arguments: [String]) -> ExitStatus {
        do {
            let parsed = try CommandLineParser(options: command.options).parse(arguments)
            if parsed.isSet(OptionSpec.help.name) {
                console.printLine(HelpFormatter.help(for: command), terminator: "")
                return .success
            }
            return try command.run(parsed, console: console)
        } catch {
            return reportUsage(error, command: command)
        }
    }

    private func help(topic: String?) -> ExitStatus {
        guard let topic else {
            console.printLine(HelpFormatter.toolHelp(commands: commands), terminator: "")
            return .success
        }
        guard let command = commands.first(where: { $0.name == topic }) else {
            return reportUsage(unknownCommandOrOption(topic), command: nil)
        }
        console.printLine(HelpFormatter.help(for: command), terminator: "")
        return .success
    }

    private func unknownCommandOrOption(_ word: String) -> UsageError {
        if word.hasPrefix("-") {
            let suggestion = SpellingSuggestion.closest(to: word, among: ["--help", "--version"])
            return .unknownOption(word, suggestion: suggestion)
        }
        let names = commands.map(\.name) + ["help"]
        return .unknownCommand(word, suggestion: SpellingSuggestion.closest(to: word, among: names))
    }

    /// Prints a usage error and where to find help; always exit status 2.
    private func reportUsage(_ error: UsageError, command: (any Command)?) -> ExitStatus {
        if let command {
            console.error(error.description, context: command.name)
            console.errorText("Run 'pixpipe \(command.name) --help' for usage.\n")
        } else {
            console.error(error.description)
            console.errorText("Run 'pixpipe --help' for usage.\n")
        }
        return .usage
    }
}
