/// A `pixpipe` subcommand: its name, help and options, and what it does.
protocol Command: Sendable {
    /// The name typed after `pixpipe`, such as `convert`.
    var name: String { get }
    /// One line saying what the command does, for `pixpipe --help`.
    var summary: String { get }
    /// The usage line, such as `pixpipe convert [OPTIONS] IN OUT`.
    var usage: String { get }
    /// Paragraphs after the options in `--help`: formats, defaults, examples.
    var details: String { get }
    /// The options the command accepts (`--help` is added by the parser).
    var options: [OptionSpec] { get }

    /// Runs the command on parsed arguments; throws ``UsageError`` for misuse the parser cannot see.
    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus
}
