/// Why a command line cannot be run as written; reported on stderr with exit status 2.
enum UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An option the command does not know; `suggestion` is a close known spelling, if any.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value was last on the line.
    case missingValue(option: String)
    /// A switch was given a value, as in `--progressive=yes`.
    case unexpectedValue(option: String, value: String)
    /// A value that does not parse or is out of range; `expected` says what would be accepted.
    case invalidValue(option: String, value: String, expected: String)
    /// A required option is absent; `reason` says why it is required here.
    case missingOption(String, reason: String)
    /// A required positional argument is absent.
    case missingArgument(String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String)
    /// The output's file extension names no format this tool writes.
    case unrecognizedExtension(path: String, supported: [String])
    /// The output's file extension (or `--format`) names an image format this tool does not write;
    /// `reason` names it and says why ("GIF: Pixpipe reads but does not write this format").
    case unwritableFormat(path: String, reason: String, supported: [String])
    /// A command name the tool does not know; `suggestion` is a close known name, if any.
    case unknownCommand(String, suggestion: String?)
    /// No command was given.
    case missingCommand
    /// An option that cannot apply to this input or with these other options; `reason` says why.
    case inapplicableOption(String, reason: String)

    /// A one-line explanation for people.
    /// Several inputs given to `convert` with a last argument named like an image file, not a folder.
    case outputFileForSeveralInputs(String)

    var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            "unknown option '\(option)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .missingValue(let option): "option '\(option)' needs a value"
        case .unexpectedValue(let option, let value): "option '\(option)' takes no value (got '\(value)')"
        case .invalidValue(let option, let value, let expected):
            "invalid value '\(value)' for '\(option)': expected \(expected)"
        case .missingOption(let option, let reason): "option '\(option)' is required \(reason)"
        case .missingArgument(let name): "missing argument \(name)"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
        case .unrecognizedExtension(let path, let supported):
            "cannot tell the output format from '\(path)': use an extension among "
                + supported.map { ".\($0)" }.joined(separator: " ") + " or give --format"
        case .unwritableFormat(let path, let reason, let supported):
            "cannot write '\(path)': \(reason); use an extension among "
                + supported.map { ".\($0)" }.joined(separator: " ") + " or give --format"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .missingCommand: "no command given"
        case .inapplicableOption(let option, let reason): "option '\(option)' \(reason)"
        case .outputFileForSeveralInputs(let path):
            "several inputs need an output folder, not the image file name '\(path)' (end it with '/' for a folder)"
        }
    }
}
