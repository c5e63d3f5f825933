import Pixpipe

/// How a `--background` colour is written in a recipe: `#rrggbbaa`, so that any change of colour or
/// opacity redoes the outputs it made.
enum BackgroundRecipe {
    /// The colour as eight hexadecimal digits after `#`.
    static func text(_ color: BackgroundColor) -> String {
        "#"
            + [color.red, color.green, color.blue, color.alpha].map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }
}
