/// The parsed command line: `pixpipe-bench SUBCOMMAND FILES... [--quality Q] [--method M] [--scale S] [--warmup N]
/// [--repeat N]`.
struct BenchArguments {
    /// The subcommand: `decode`, `verify`, `decode-frames`, `encode-jpeg`, `encode-png`, `encode-webp` or `resize`.
    var subcommand: String
    /// Input files, in order.
    var files: [String] = []
    /// JPEG or WebP quality for `encode-jpeg` and `encode-webp`.
    var quality = 85
    /// WebP method (speed/size trade-off, 0...6) for `encode-webp`; 4 is libwebp's and cwebp's default.
    var method = 4
    /// Scale factor for `resize` (0.125 is 1/8).
    var scale = 0.5
    /// Untimed runs before measuring.
    var warmups = 1
    /// Timed runs.
    var repetitions = 3
    /// Requests of `pipeline-mixed`, or memory hits of `pipeline-memory` (0: the subcommand's default).
    var requests = 0
    /// Distinct URLs of `pipeline-mixed`.
    var urls = 1_000
    /// Requests in flight at once in `pipeline-mixed`.
    var concurrency = 64

    /// The usage text printed for `--help` and for mistakes.
    static let usage = """
        pixpipe-bench decode FILES...            time decoding every file (from memory)
        pixpipe-bench verify FILES...            time verifying every file (from memory), as `pixpipe fetch` does
        pixpipe-bench decode-frames FILES...     time decoding every frame of every file (AnimationReader)
        pixpipe-bench encode-jpeg FILE [--quality 85]
        pixpipe-bench encode-png FILE            time encoding the decoded FILE
        pixpipe-bench encode-webp FILE [--quality 85] [--method 4]
        pixpipe-bench resize FILE [--scale 0.125] time a Lanczos-3 resize of the decoded FILE
        pixpipe-bench pipeline-memory FILE [--requests 100000]   ImagePipeline memory-cache hits per second
        pixpipe-bench pipeline-disk FILES...     disk-cache hit latency against a fresh fetch and decode
        pixpipe-bench pipeline-mixed FILES... [--requests 10000] [--urls 1000] [--concurrency 64]
                                                 Zipf-distributed URLs at three thumbnail sizes
        (the pipeline rows serve FILES from an in-process HTTP server on 127.0.0.1)
        options: --warmup N (default 1), --repeat N (default 3). Prints one JSON object.
        """

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(BenchError) {
        guard let first = arguments.first else { throw .usage(Self.usage) }
        subcommand = first
        var remaining = arguments.dropFirst()
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quality": quality = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--method": method = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--scale": scale = try Self.value(of: argument, from: &remaining, as: Double.self)
            case "--warmup": warmups = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--repeat": repetitions = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--requests": requests = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--urls": urls = try Self.value(of: argument, from: &remaining, as: Int.self)
            case "--concurrency": concurrency = try Self.value(of: argument, from: &remaining, as: Int.self)
            default:
                if argument.hasPrefix("--") { throw .usage("unknown option \(argument)\n\(Self.usage)") }
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw .usage("\(subcommand) needs at least one file\n\(Self.usage)") }
        guard warmups >= 0, repetitions >= 1 else { throw .usage("--warmup must be >= 0 and --repeat >= 1") }
        guard scale > 0, scale <= 1 else { throw .usage("--scale must be in (0, 1]") }
        guard requests >= 0, urls >= 1, concurrency >= 1 else {
            throw .usage("--requests must be >= 0, --urls and --concurrency >= 1")
        }
    }

    /// The value after an option, parsed as `T`.
    private static func value<T: LosslessStringConvertible>(
        of option: String, from remaining: inout ArraySlice<String>, as type: T.Type
    ) throws(BenchError) -> T {
        guard let text = remaining.popFirst(), let value = T(text) else {
            throw .usage("\(option) needs a \(T.self) value")
        }
        return value
    }
}
