import Pixpipe

/// Renders the `--help` text of a command and of the tool.
enum HelpFormatter {
    /// The help of `command`: usage, summary, options and details.
    static func help(for command: any Command) -> String {
        var text = "Usage: \(command.usage)\n\n\(command.summary)\n\nOptions:\n"
        text += optionLines(CommandLineParser(options: command.options).options)
        if !command.details.isEmpty { text += "\n" + command.details + "\n" }
        return text
    }

    /// The tool's own help: its commands and global options.
    static func toolHelp(commands: [any Command]) -> String {
        let width = (commands.map(\.name.count).max() ?? 0) + 4
        var text = """
            pixpipe \(PixpipeTool.version): fetch, inspect, convert and thumbnail images.
            Reads \(ImageFormat.decodableNames); writes \(ImageFormat.encodableNames) ('pixpipe formats' lists them).

            Usage: pixpipe COMMAND [OPTIONS] [ARGUMENTS]

            Commands:

            """
        for command in commands {
            text += "  " + command.name.padding(toLength: width) + command.summary + "\n"
        }
        text += "  " + "help".padding(toLength: width) + "Show the help of a command.\n"
        text += """

            Options:
              -h, --help       Show this help and exit.
              --version        Print the version and exit.

            Run 'pixpipe help COMMAND' or 'pixpipe COMMAND --help' for a command's options.
            Results go to standard output; messages and errors to standard error.
            Exit status: 0 success, 1 some inputs failed, 2 usage error.

            """
        return text
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        let spellings = options.map { option in
            let short = option.shortName.map { "-\($0), " } ?? "    "
            switch option.kind {
            case .flag: return short + option.longSpelling
            case .value(let placeholder): return short + option.longSpelling + " " + placeholder
            }
        }
        let width = (spellings.map(\.count).max() ?? 0) + 3
        return zip(spellings, options).map { "  " + $0.padding(toLength: width) + $1.help + "\n" }.joined()
    }
}

extension String {
    /// The string followed by spaces up to `length` characters (unchanged when already as long).
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
