import Foundation

/// One pipeline benchmark's result: the operation and named numbers, printed as one JSON object with sorted
/// keys (`seconds_median` among them, which `scripts/bench` reads from an in-process timer).
struct PipelineBenchReport: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The subcommand measured.
    var operation: String
    /// The figures, by their JSON names.
    var values: [String: Double]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(operation, forKey: Key(stringValue: "op"))
        for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
    }

    /// Prints the report as one line of JSON.
    func print() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) {
            Swift.print(line)
        }
    }
}
