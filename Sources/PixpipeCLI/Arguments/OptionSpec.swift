/// One option a command accepts, as it is spelled on the command line and described in its help.
struct OptionSpec: Sendable, Hashable {
    /// Whether the option stands alone or takes a value.
    enum Kind: Sendable, Hashable {
        /// A switch such as `--progressive`: present or absent, never given a value.
        case flag
        /// An option with a value such as `--quality 90` or `--quality=90`; `placeholder` names it in help.
        case value(placeholder: String)
    }

    /// The long name without its dashes: `quality` for `--quality`.
    let name: String
    /// The one-letter short name without its dash, if the option has one: `q` for `-q`.
    let shortName: Character?
    /// Flag or value.
    let kind: Kind
    /// One line for the command's help.
    let help: String

    /// The long spelling, `--name`, used in messages.
    var longSpelling: String { "--\(name)" }

    /// Whether the option takes a value.
    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }

    /// A switch.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, kind: .flag, help: help)
    }

    /// An option with a value.
    static func value(_ name: String, short: Character? = nil, placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, kind: .value(placeholder: placeholder), help: help)
    }

    /// `-h, --help`, which every command accepts.
    static let help = OptionSpec.flag("help", short: "h", help: "Show this help and exit.")
}
