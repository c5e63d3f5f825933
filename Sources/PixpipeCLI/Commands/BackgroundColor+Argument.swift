import Pixpipe

extension BackgroundColor {
    /// The names and forms `--background` accepts, for error messages.
    static let acceptedForms = "white, black, gray, red, green, blue, transparent, #rrggbb or #rrggbbaa"

    /// The colour a `--background` value names (a name, `#rrggbb` or `#rrggbbaa`), or `nil`.
    init?(argument: String) {
        let text = argument.lowercased()
        switch text {
        case "white": self.init(red: 255, green: 255, blue: 255)
        case "black": self.init(red: 0, green: 0, blue: 0)
        case "gray", "grey": self.init(red: 128, green: 128, blue: 128)
        case "red": self.init(red: 255, green: 0, blue: 0)
        // CSS's and ImageMagick's `green` is #008000, not full green.
        case "green": self.init(red: 0, green: 128, blue: 0)
        case "blue": self.init(red: 0, green: 0, blue: 255)
        case "transparent", "none": self.init(red: 0, green: 0, blue: 0, alpha: 0)
        default:
            let digits = Array(text.dropFirst())
            guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit)
            else { return nil }
            var samples: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let sample = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
                samples.append(sample)
            }
            self.init(
                red: samples[0], green: samples[1], blue: samples[2], alpha: samples.count == 4 ? samples[3] : 255)
        }
    }
}
