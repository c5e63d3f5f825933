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
