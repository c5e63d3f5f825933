import Foundation
import Pixpipe

/// The options of one `pixpipe fetch` run, validated into the downloader's options.
struct FetchSettings: Sendable {
    /// The LIST argument: a path, `-`, or a single http(s) URL.
    let list: String
    /// `--list-format`, or `nil` to detect it.
    let listFormat: URLListFormat?
    /// The downloader's options (the output folder is `.` under `--dry-run` without `--out`).
    let options: DownloadOptions
    /// `--dry-run`: show the plan, download nothing.
    let dryRun: Bool
    /// `--json`: events as JSON Lines on standard output.
    let json: Bool

    /// Whether LIST is a single URL rather than a list.
    var listIsSingleURL: Bool {
        let lowered = list.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Reads and checks the options.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        list = try arguments.positionals(named: ["LIST"])[0]
        dryRun = arguments.isSet("dry-run")
        json = arguments.isSet("json")
        let out = arguments.value("out")
        guard let out = out ?? (dryRun ? "." : nil), !out.isEmpty else {
            throw .missingOption("--out", reason: "to name the folder images are written to")
        }
        listFormat = try arguments.parsed("list-format", expected: "lines, csv, tsv or jsonl") {
            URLListFormat(rawValue: $0.lowercased())
        }
        var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: out, isDirectory: true))
        options.concurrency = try arguments.integer("concurrency", in: 1...1024) ?? options.concurrency
        options.perHostConcurrency = try arguments.integer("per-host", in: 1...1024) ?? options.perHostConcurrency
        options.maximumParkedItems =
            try arguments.integer("max-parked", in: 0...10_000_000) ?? options.maximumParkedItems
        if let retries = try arguments.integer("retries", in: 0...100) {
            options.retryPolicy.maxAttempts = retries + 1
        }
        if let seconds = try arguments.parsed("timeout", expected: "a number of seconds above 0", Self.seconds) {
            options.timeout = seconds
        }
        let limits = try LimitOptions(arguments, bytes: .body)
        // Bodies are held in memory: there is always a limit (0 is refused by the parser).
        options.maxBodyBytes = (limits.bytes ?? nil) ?? options.maxBodyBytes
        if let seconds = try arguments.parsed(
            "deadline", expected: "a number of seconds, 0 for none", { Double($0) == 0 ? .zero : Self.seconds($0) })
        {
            options.itemDeadline = seconds == .zero ? nil : seconds
        }
        options.maxRedirects = try arguments.integer("max-redirects", in: 0...100) ?? options.maxRedirects
        if let pixels = limits.pixels { options.decodeOptions.pixelLimit = pixels }
        if let frames = limits.frames { options.decodeOptions.frameLimit = frames }
        if arguments.isSet("lenient") { options.decodeOptions.strictness = .lenient }
        options.userAgent = arguments.value("user-agent")
        for rate in arguments.values("rate") {
            let (host, perSecond) = try Self.rate(rate)
            if let host {
                options.hostRequestsPerSecond[host] = perSecond
            } else {
                options.requestsPerSecond = perSecond
            }
        }
        options.obeysRobotsTxt = arguments.isSet("robots")
        options.respectsNoAI = arguments.isSet("respect-noai")
        for header in arguments.values("header") {
            let (name, value) = try Self.header(header)
            options.headers[name] = value
        }
        options.transport =
            try arguments.parsed("transport", expected: "curl or urlsession") { text -> HTTPTransportKind? in
                HTTPTransportKind.allCases.first { $0.description == text.lowercased() }
            } ?? options.transport
        options.keepsHeadersAcrossOrigins = arguments.isSet("keep-headers-on-redirect")
        options.trustedCertificates = try Self.trustedCertificates(arguments, transport: options.transport)
        (options.processing, options.outputEncoding) = try Self.processing(arguments, maxPixels: limits.pixels)
        if !options.processing.isEmpty, arguments.value("convert") == nil {
            // As `thumbnail` decides: PNG for sources with alpha, JPEG for the others.
            options.alphaOutputEncoding = ImageEncoding.standard(for: ThumbnailFormatRule.format(hasAlpha: true))
        }
        if arguments.isSet("animated") {
            guard !options.processing.isEmpty else {
                throw .missingOption("--thumbnail", reason: "with --animated (it keeps the frames of thumbnails)")
            }
            let format =
                options.outputEncoding.map(\.format).flatMap { $0.canEncodeAnimation ? $0 : nil }
                ?? ThumbnailSettings.defaultAnimationFormat
            options.animationEncoding = ImageEncoding.standard(for: format)
        }
        options.keepsOriginal = arguments.isSet("keep-original")
        options.verifiesByDecoding = !arguments.isSet("no-verify")
        options.nameTemplate = arguments.value("name")
        options.resume = arguments.isSet("retry-failed") ? .retryFailed : .skipCompleted
        options.refreshesStored = arguments.isSet("refresh")
        options.prunesGone = arguments.isSet("prune")
        if options.prunesGone, !options.refreshesStored {
            throw .missingOption("--refresh", reason: "with --prune (only a refresh finds items gone)")
        }
        options.fileSync = arguments.isSet("fsync-each") ? .eachFile : .atEnd
        // Progress events feed only the bar, drawn when standard error is a terminal (see FetchEventReporter).
        options.reportsProgress = FetchProgressBar.isTerminal
        // `.started` feeds the bar's bytes in flight and the JSON lines; otherwise it is a wasted event per item.
        options.reportsStarts = FetchProgressBar.isTerminal || arguments.isSet("json")
        options.shard = try arguments.parsed("shard", expected: "I/N with 0 <= I < N, such as 0/4", Self.shard)
        options.archive = try Self.archive(arguments, list: list)
        self.options = options
    }

    /// `--thumbnail N` (a thumbnail step, JPEG, or PNG for sources with alpha, unless `--convert` says otherwise) and `--convert FORMAT` (the
    /// output encoding; alone, a conversion without pixel steps).
    ///
    /// The thumbnail has limits of its own, by default looser than a full decode's (1 gigapixel of source,
    /// 100 megapixels decoded at the reduced size it needs). `maxPixels` is what `--max-pixels` said, when it
    /// was given (`.some(nil)` for no limit): it then bounds the source, as it does every other image.
    private static func processing(
        _ arguments: ParsedArguments, maxPixels: Int??
    ) throws(UsageError) -> ([any ImageProcessing], ImageEncoding?) {
        let encoding = try arguments.parsed("convert", expected: ImageFormat.writableNames) { name in
            ImageFormat(name: name).flatMap { ImageEncoding.standard(for: $0) }
        }
        if let side = try arguments.integer("thumbnail", in: 1...65_535) {
            var thumbnail = ThumbnailOptions(size: .box(side))
            if let maxPixels {
                thumbnail.sourcePixelLimit = maxPixels
                thumbnail.pixelLimit = maxPixels
            }
            return (
                [.thumbnail(thumbnail)],
                encoding ?? ImageEncoding.standard(for: ThumbnailFormatRule.format(hasAlpha: false))
            )
        }
        return ([], encoding)
    }

    /// `--cacert FILE` and `--capath DIR`, or else what `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR`
    /// name (curl transport only; URLSession on Linux cannot be given certificate authorities). A file or
    /// folder that cannot be read is a usage error, named by the option or variable that gave it.
    static func trustedCertificates(
        _ arguments: ParsedArguments, transport: HTTPTransportKind,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> TrustedCertificates? {
        let file = arguments.value("cacert")
        let directory = arguments.value("capath")
        guard file != nil || directory != nil else {
            // The environment is the curl transport's; a URLSession run keeps the system's trust.
            guard transport.supportsTrustedCertificates,
                let trust = TrustedCertificates.fromEnvironment(environment)
            else { return nil }
            let fileVariable = TrustedCertificates.bundleVariables.first { environment[$0]?.isEmpty == false }
            try checkReadable(trust.caFile, directory: false, source: fileVariable ?? "")
            try checkReadable(trust.caDirectory, directory: true, source: TrustedCertificates.directoryVariable)
            return trust
        }
        guard transport.supportsTrustedCertificates else {
            throw .invalidValue(
                option: "--transport", value: transport.description,
                expected: "curl with --cacert or --capath (URLSession on Linux cannot be given certificate authorities)"
            )
        }
        try checkReadable(file, directory: false, source: "--cacert")
        try checkReadable(directory, directory: true, source: "--capath")
        return TrustedCertificates(caFile: file, caDirectory: directory)
    }

    private static func checkReadable(_ path: String?, directory: Bool, source: String) throws(UsageError) {
        guard let path else { return }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard exists, isDirectory.boolValue == directory, FileManager.default.isReadableFile(atPath: path) else {
            throw .invalidValue(
                option: source, value: path,
                expected: directory
                    ? "a readable folder of certificate authorities" : "a readable PEM file of certificate authorities")
        }
    }

    /// Seconds, fractional allowed, above zero and at most a day.
    private static func seconds(_ text: String) -> Duration? {
        guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else { return nil }
        return .milliseconds(Int64((value * 1000).rounded(.up)))
    }

    /// `--archive KIND` with `--shard-size N` (webdataset) or `--group-by COLUMN` (cbz; the book of a whole list
    /// is named after the list file); either without its kind is a usage error, as is `--shard` with cbz.
    private static func archive(_ arguments: ParsedArguments, list: String) throws(UsageError) -> ArchiveLayout? {
        let shardSize = try arguments.integer("shard-size", in: 1...10_000_000)
        let groupBy = arguments.value("group-by")
        let kind = arguments.value("archive")?.lowercased()
        if shardSize != nil, kind != "webdataset" {
            throw .missingOption("--archive webdataset", reason: "with --shard-size")
        }
        if groupBy != nil, kind != "cbz" { throw .missingOption("--archive cbz", reason: "with --group-by") }
        guard let kind else { return nil }
        switch kind {
        case "webdataset": return .webDataset(shardSize: shardSize ?? 1000)
        case "cbz":
            if arguments.value("shard") != nil {
                throw .invalidValue(
                    option: "--shard", value: arguments.value("shard") ?? "",
                    expected: "no --shard with --archive cbz (a book is made by one process)")
            }
            if let groupBy, groupBy.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .invalidValue(option: "--group-by", value: groupBy, expected: "a column name")
            }
            if arguments.isSet("keep-original") {
                // A comic reader shows every image of the book as a page: the original would be a second copy.
                throw .inapplicableOption(
                    "--keep-original",
                    reason: "does not apply to --archive cbz: a comic reader would show each original as a page")
            }
            return .comicBook(name: bookName(list: list), groupBy: groupBy?.lowercased())
        default: throw .invalidValue(option: "--archive", value: kind, expected: "webdataset or cbz")
        }
    }

    /// The book of a whole list: the list file's name without its extensions (`comics.csv.gz`: `comics`), or
    /// `comic` for standard input and a single URL.
    private static func bookName(list: String) -> String {
        let lowered = list.lowercased()
        guard list != "-", !lowered.hasPrefix("http://"), !lowered.hasPrefix("https://") else { return "comic" }
        let file = (list as NSString).lastPathComponent
        let stem = String(file.prefix { $0 != "." })
        return stem.isEmpty ? "comic" : stem
    }

    private static func shard(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        return try? Shard(index: index, count: count)
    }

    /// `Name: value` split at the first colon; the name must be a token (no spaces or separators).
    /// `--rate N`, `N/s`, `N/min` (requests per host), or the same after `HOST=` for one host: the host (lowercased)
    /// and the rate in requests a second.
    private static func rate(_ text: String) throws(UsageError) -> (host: String?, perSecond: Double) {
        let invalid = UsageError.invalidValue(
            option: "--rate", value: text, expected: "N, N/s or N/min above 0, optionally after HOST=")
        var host: String?
        var rest = Substring(text)
        if let equals = rest.firstIndex(of: "=") {
            host = rest[..<equals].lowercased()
            rest = rest[rest.index(after: equals)...]
            guard let host, !host.isEmpty, !host.contains("/"), !host.contains(":") else { throw invalid }
        }
        var seconds = 1.0
        if let slash = rest.firstIndex(of: "/") {
            switch rest[rest.index(after: slash)...].lowercased() {
            case "s", "sec", "second": seconds = 1
            case "m", "min", "minute": seconds = 60
            default: throw invalid
            }
            rest = rest[..<slash]
        }
        guard let count = Double(rest), count > 0, count.isFinite else { throw invalid }
        return (host, count / seconds)
    }

    private static func header(_ text: String) throws(UsageError) -> (String, String) {
        let invalid = UsageError.invalidValue(option: "--header", value: text, expected: "'Name: value'")
        guard let colon = text.firstIndex(of: ":") else { throw invalid }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let separators = CharacterSet(charactersIn: "()<>@,;:\\\"/[]?={} \t\r\n")
        guard !name.isEmpty, name.rangeOfCharacter(from: separators) == nil,
            !value.contains("\r"), !value.contains("\n")
        else { throw invalid }
        return (name, value)
    }
}
