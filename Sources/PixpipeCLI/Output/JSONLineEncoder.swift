import Foundation

/// Encodes one value as a single line of JSON (JSON Lines), keys sorted so output is stable.
struct JSONLineEncoder: Sendable {
    /// The line for `value`, without its newline.
    func line(for value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A non-finite Double is the only thing that makes encoding a plain record fail; spell it out instead.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return "null"
        }
        return text
    }
}
