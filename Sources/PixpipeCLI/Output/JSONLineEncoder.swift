import Foundation
import PixpipeLocking

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
        return Self.escapingControls(text)
    }

    /// `json` with the controls JSON encoding leaves raw (DEL, C1, bidirectional controls, line and paragraph
    /// separators: only U+0000-U+001F must be escaped) written as `\uXXXX`, which decodes to the same
    /// string: a line shown on a terminal then cannot drive it. Those scalars occur only inside strings,
    /// since everything else in JSON is printable ASCII.
    static func escapingControls(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 >= 0x7F }) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if UntrustedText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
