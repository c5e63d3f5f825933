import Pixpipe

/// The limits of the commands that decode (`convert`, `thumbnail`, `fetch`): declared, parsed and explained
/// here once, so `--max-bytes`, `--max-pixels`, `--max-frames` and `thumbnail`'s `--max-source-pixels` are
/// spelled, checked and described alike. 0 lifts a limit, except a download's body limit: bodies are held
/// in memory, so there is always one.
struct LimitOptions: Sendable, Hashable {
    /// What `--max-bytes` bounds.
    enum ByteScope: Sendable {
        /// An input file or standard input (`convert`, `thumbnail`): 256 MiB by default, 0 lifts it.
        case input
        /// A response body (`fetch`): 50 MB by default, always bounded.
        case body
    }

    /// The options of a command whose `--max-bytes` bounds `bytes`; `sourcePixels` adds
    /// `--max-source-pixels` (thumbnails, which decode large sources at a reduced size).
    static func options(bytes: ByteScope, sourcePixels: Bool = false) -> [OptionSpec] {
        let byteHelp =
            switch bytes {
            case .input:
                "Refuse inputs over N bytes, K/M/G allowed (default \(DecodeOptions.defaultByteLimit >> 20)M; 0 = no limit)."
            case .body:
                "Largest body in bytes, K/M/G suffixes allowed (default \(DownloadOptions.defaultMaxBodyBytes))."
            }
        var options: [OptionSpec] = [
            .value(
                "max-pixels", placeholder: "N",
                help: "Refuse images over N pixels (default \(DecodeOptions.defaultPixelLimit); 0 = no limit)."),
            .value("max-bytes", placeholder: "N", help: byteHelp),
        ]
        if sourcePixels {
            options.append(
                .value(
                    "max-source-pixels", placeholder: "N",
                    help:
                        "Refuse sources over N pixels, even if decoded reduced (default "
                        + "\(ThumbnailOptions.defaultSourcePixelLimit); 0 = no limit)."))
        }
        options.append(
            .value(
                "max-frames", placeholder: "N",
                help: "Refuse animations of over N frames (default \(DecodeOptions.defaultFrameLimit); 0 = no limit)."))
        return options
    }

    /// A limit as given: `nil` when the option is absent (the default applies), `.some(nil)` for 0 (no
    /// limit), else the value.
    typealias Given = Int??

    /// `--max-pixels`.
    let pixels: Given
    /// `--max-bytes`; never `.some(nil)` for a body.
    let bytes: Given
    /// `--max-source-pixels`.
    let sourcePixels: Given
    /// `--max-frames`.
    let frames: Given

    /// Reads the options; `bytes` says what `--max-bytes` bounds (a body limit of 0 is a usage error).
    init(_ arguments: ParsedArguments, bytes scope: ByteScope) throws(UsageError) {
        pixels = try Self.limit(arguments.integer("max-pixels", in: 0...Int.max))
        bytes = try Self.limit(arguments.byteCount("max-bytes", allowsZero: scope == .input))
        sourcePixels = try Self.limit(arguments.integer("max-source-pixels", in: 0...Int.max))
        frames = try Self.limit(arguments.integer("max-frames", in: 0...Int.max))
    }

    /// `given` with 0 read as no limit.
    private static func limit(_ given: Int?) -> Given {
        given.map { $0 == 0 ? nil : $0 }
    }

    /// The decode options of these limits over `base`: each limit given replaces the base's.
    func applied(to base: DecodeOptions) -> DecodeOptions {
        var options = base
        if let pixels { options.pixelLimit = pixels }
        if let bytes { options.byteLimit = bytes }
        if let frames { options.frameLimit = frames }
        return options
    }

    /// The thumbnail options of these limits over `base`; `--max-frames` is not a thumbnail option.
    func applied(to base: ThumbnailOptions) -> ThumbnailOptions {
        var options = base
        if let pixels { options.pixelLimit = pixels }
        if let bytes { options.byteLimit = bytes }
        if let sourcePixels { options.sourcePixelLimit = sourcePixels }
        return options
    }
}
