import Pixpipe

/// `pixpipe formats`: every format of the codec table and what Pixpipe does with it.
struct FormatsCommand: Command {
    let name = "formats"
    let summary = "List the image formats, what each can do, and their file extensions."
    let usage = "pixpipe formats [--json]"
    let details = """
        One line per format, in the order sniffing tries them: its name (as --format takes it), then
        'decode' and 'encode' where Pixpipe reads or writes it, 'animation' where it writes animations,
        'lossless' where the encoder has a lossless mode beside its lossy one, 'quality' where --quality
        applies, 'progressive' where --progressive applies, '16-bit' where convert keeps 16-bit samples,
        then its file extensions.
        With --json each format gives one JSON object per line, with the keys format, decode, encode,
        animation, lossless, quality, progressive, sixteenBit, extensions and mediaTypes.
        """
    let options: [OptionSpec] = [
        .flag("json", help: "Print one JSON object per format and line (JSON Lines).")
    ]

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        let encoder = JSONLineEncoder()
        for format in ImageFormat.all {
            let record = FormatRecord(format)
            console.printLine(arguments.isSet("json") ? encoder.line(for: record) : record.humanLine)
        }
        return .success
    }
}

/// One format's line of `pixpipe formats`.
struct FormatRecord: Encodable {
    let format: String
    let decode: Bool
    let encode: Bool
    let animation: Bool
    let lossless: Bool
    let quality: Bool
    let progressive: Bool
    let sixteenBit: Bool
    let extensions: [String]
    let mediaTypes: [String]

    /// The record of `format`, from the codec table.
    init(_ format: ImageFormat) {
        self.format = format.rawValue
        decode = format.canDecode
        encode = format.canEncode
        animation = format.canEncodeAnimation
        lossless = format.hasLosslessMode
        quality = format.usesQuality
        progressive = format.hasProgressiveMode
        sixteenBit = format.writes16Bit
        extensions = format.fileExtensions
        mediaTypes = format.mediaTypes
    }

    /// `png  decode encode progressive  .png`.
    var humanLine: String {
        let abilities = [
            (decode, "decode"), (encode, "encode"), (animation, "animation"), (lossless, "lossless"),
            (quality, "quality"), (progressive, "progressive"), (sixteenBit, "16-bit"),
        ].filter(\.0).map(\.1)
        let padded = format.padding(toLength: max(format.count, 6), withPad: " ", startingAt: 0)
        return "\(padded)  \(abilities.joined(separator: " "))  "
            + extensions.map { "." + $0 }.joined(separator: " ")
    }
}
