/// The options and positional arguments of one command line, with typed accessors that throw ``UsageError``.
struct ParsedArguments: Sendable, Hashable {
    /// The arguments that are not options, in order.
    var positionals: [String] = []
    /// Every value given to each value option, by long name, in order.
    private var values: [String: [String]] = [:]
    /// The long names of the switches present.
    private var flags: Set<String> = []

    /// Records one occurrence of `option`; `value` is `nil` for switches.
    mutating func record(_ option: OptionSpec, value: String?) {
        if let value {
            values[option.name, default: []].append(value)
        } else {
            flags.insert(option.name)
        }
    }

    /// Whether the switch `name` was given.
    func isSet(_ name: String) -> Bool { flags.contains(name) }

    /// The value of option `name`; when it was given several times, the last one wins, as in most tools.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given to the repeatable option `name`, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of option `name` as an integer within `range`, or `nil` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let expected =
                range.upperBound == Int.max
                ? "an integer of at least \(range.lowerBound)"
                : "an integer from \(range.lowerBound) to \(range.upperBound)"
            throw .invalidValue(option: "--\(name)", value: text, expected: expected)
        }
        return number
    }

    /// The value of option `name` read by `convert`, or `nil` when absent; `expected` describes valid values.
    func parsed<T>(_ name: String, expected: String, _ convert: (String) -> T?) throws(UsageError) -> T? {
        guard let text = value(name) else { return nil }
        guard let result = convert(text) else {
            throw .invalidValue(option: "--\(name)", value: text, expected: expected)
        }
        return result
    }

    /// The positional arguments, checked to be exactly as many as `names` (used in messages as `IN`, `OUT`...).
    func positionals(named names: [String]) throws(UsageError) -> [String] {
        if positionals.count < names.count { throw .missingArgument(names[positionals.count]) }
        if positionals.count > names.count { throw .unexpectedArgument(positionals[names.count]) }
        return positionals
    }
}

extension ParsedArguments {
    /// The value of option `name` as a byte count (digits, optionally with a K, M or G suffix: powers of
    /// 1024), or `nil` when absent. `allowsZero` admits 0, which the caller reads as "no limit".
    func byteCount(_ name: String, allowsZero: Bool = false) throws(UsageError) -> Int? {
        let expected = "a byte count such as 5000000 or 20M" + (allowsZero ? ", 0 for no limit" : "")
        return try parsed(name, expected: expected) { text in
            Self.bytes(text).flatMap { $0 > 0 || allowsZero ? $0 : nil }
        }
    }

    /// A byte count with an optional K, M or G suffix; `nil` when malformed, negative or overflowing.
    private static func bytes(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let lowered = text.lowercased()
        let multiplier = lowered.last.flatMap { multipliers[$0] } ?? 1
        let digits = multiplier == 1 ? lowered : String(lowered.dropLast())
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits), count >= 0 else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
