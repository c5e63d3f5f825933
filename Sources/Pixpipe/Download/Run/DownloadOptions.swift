import Foundation

/// How a ``Downloader`` fetches, verifies, names and stores a batch.
///
/// ```swift
/// var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: "comics"))
/// options.concurrency = 8
/// options.nameTemplate = "{index}-{name}"
/// options.processing = [.thumbnail(ThumbnailOptions(size: .box(256)))]
/// options.outputEncoding = .jpeg(quality: 85)
/// ```
///
/// What is stored follows from two settings: ``processing`` (pixel steps, run in order, the first from the
/// downloaded bytes) and ``outputEncoding``. Neither set: the bytes as they came, after verifying them. An
/// encoding without steps: a conversion (decoded in full, re-encoded). Steps without an encoding: the
/// source's format with default options.
public struct DownloadOptions: Sendable {
    /// The folder the files and the manifest go to; created when missing.
    public var outputDirectory: URL
    /// The most transfers at once over all hosts.
    public var concurrency: Int = 16
    /// The most transfers at once to one host (`host:port`).
    public var perHostConcurrency: Int = 8
    /// At most this many attempts start per second to any one host (`nil`: no rate, only the concurrency
    /// limits); ``hostRequestsPerSecond`` overrides it for named hosts. Under ``shard``, the shards writing to
    /// one folder keep it together, through a file per host under `.pixpipe/pace` in the folder.
    public var requestsPerSecond: Double? = nil
    /// Whether each host's robots.txt (RFC 9309) is fetched once per run and obeyed (off by default: the list's
    /// author chose the URLs). Rules for the product token `Pixpipe` apply, else those for `*`. A disallowed
    /// URL is never requested: it is recorded `skipped` with `robots-disallowed`. A `Crawl-delay` becomes the
    /// least interval between the host's requests. A robots.txt answered `4xx` allows everything; one answered
    /// `5xx`, or not at all, disallows the whole host for the run (RFC 9309 2.3.1).
    ///
    /// ```swift
    /// var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: "crawl"))
    /// options.obeysRobotsTxt = true
    /// options.respectsNoAI = true
    /// ```
    public var obeysRobotsTxt: Bool = false
    /// Whether images whose response's `X-Robots-Tag` says `noai` or `noimageai` (for every crawler, or for
    /// `Pixpipe`) are skipped from their headers, the body never read: recorded `skipped` with `noai`.
    public var respectsNoAI: Bool = false
    /// The product token robots.txt groups and `X-Robots-Tag` scopes are matched against.
    public static let productToken = "Pixpipe"
    /// Rates of their own for some hosts (lowercased host names, without port), in attempts per second.
    public var hostRequestsPerSecond: [String: Double] = [:]
    /// The default body limit, 50 MB: bodies are held in memory while they are checked.
    public static let defaultMaxBodyBytes = 50_000_000
    /// The most body bytes accepted for one item; larger bodies fail with `body-too-large`.
    public var maxBodyBytes: Int = DownloadOptions.defaultMaxBodyBytes
    /// The time one attempt may take, headers and body included; it starts when the item gets its slot.
    public var timeout: Duration = .seconds(30)
    /// The time one item may take from its first attempt, retries and their waits included; `nil` for none.
    public var itemDeadline: Duration? = .seconds(300)
    /// The most redirects followed for one transfer; one more fails the attempt with `too-many-redirects`
    /// (0: a redirect is not followed but fails).
    public var maxRedirects: Int = RedirectPolicy.defaultMaxRedirects
    /// Whether every header (``headers`` included) goes on to another origin (scheme, host or port) after a
    /// redirect; by default only headers that name nobody do (``RedirectPolicy/headersKeptAcrossOrigins``).
    public var keepsHeadersAcrossOrigins: Bool = false
    /// The certificate authorities trusted instead of the system's (curl transport only); `nil` trusts what
    /// the environment names (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`), else the system's.
    public var trustedCertificates: TrustedCertificates? = nil
    /// When to retry; the same budget covers HTTP failures and bodies that do not decode completely.
    public var retryPolicy: RetryPolicy = RetryPolicy()
    /// Header fields sent with every request.
    public var headers: [String: String] = [:]
    /// The `User-Agent`; `nil` sends the HTTP layer's default.
    public var userAgent: String? = nil
    /// What moves the bytes.
    public var transport: HTTPTransportKind = .platformDefault
    /// A file name template with `{index}` (1-based position in the list), `{name}` (stem from the item's
    /// name or the URL), `{host}`, `{sha256}` (of the stored bytes) and `{ext}` (from the sniffed or written
    /// format; appended as `.ext` when the template does not use it). `nil` means `{name}`.
    public var nameTemplate: String? = nil
    /// The pixel steps applied to each verified image before it is written, first to last; none by default.
    /// Their composed ``ImageProcessing/identifier`` names what they do.
    public var processing: [any ImageProcessing] = []
    /// The encoding processed or converted images are written with; `nil` stores the bytes as they came when
    /// there is no processing, and the source's format otherwise.
    public var outputEncoding: ImageEncoding? = nil
    /// The encoding of processed images whose source declares alpha in its header, instead of
    /// ``outputEncoding`` (so a thumbnail with transparency can be PNG while others are JPEG); `nil`: the same.
    public var alphaOutputEncoding: ImageEncoding? = nil
    /// The encoding of animated thumbnails: with a thumbnail as the only processing step, a source of more than
    /// one frame (an animated GIF, WebP, AVIF or JPEG XL) has every frame resized alike and stored as one
    /// animation in this encoding, delays and loop count kept (``AnimationThumbnailer``); its format must hold
    /// animations (``ImageFormat/canEncodeAnimation``). `nil` (the default): the first frame, as for stills.
    ///
    /// ```swift
    /// options.processing = [.thumbnail(ThumbnailOptions(size: .box(256)))]
    /// options.animationEncoding = .webp
    /// ```
    public var animationEncoding: ImageEncoding? = nil
    /// With processing or an encoding, also store the original bytes, as `STEM.original.EXT` next to the
    /// processed file.
    public var keepsOriginal: Bool = false
    /// What to do with items the manifest already records.
    public var resume: ResumeMode = .skipCompleted
    /// Whether items an earlier run stored (and whose file is still as stored) are revalidated rather than
    /// skipped: asked again with `If-None-Match` / `If-Modified-Since` from the manifest's `etag` and
    /// `lastModified` (without validators, fetched in full and compared by hash). `304` or the same bytes:
    /// `unchanged`, the file untouched; new bytes: stored over the file atomically (`ok`, new hash); `404` or
    /// `410`: `gone`, the file kept unless ``prunesGone``; any other failure keeps the file and its record
    /// good for later runs. Items not stored yet are handled as ``resume`` says.
    public var refreshesStored: Bool = false
    /// With ``refreshesStored``, deletes the stored file (and a kept original) of an item found gone.
    public var prunesGone: Bool = false
    /// Only the items of this share of the list, or all of them when `nil`.
    public var shard: Shard? = nil
    /// Archives to pack the stored files into (see ``ArchiveLayout``), or `nil` for loose files in
    /// ``outputDirectory``.
    public var archive: ArchiveLayout? = nil
    /// How bodies are verified; strict by default, so truncated images fail and are retried.
    public var decodeOptions: DecodeOptions = .init()
    /// Whether images stored as they came (no processing) are decoded to prove them complete (the default).
    /// When `false` only their header is read: faster, but a truncated or damaged body is stored as is.
    public var verifiesByDecoding: Bool = true
    /// When stored files are flushed to the disk: once when the batch ends (the default), or each file.
    public var fileSync: FileSync = .atEnd
    /// The manifest's file name inside the output folder.
    public var manifestName: String = "manifest.jsonl"
    /// Whether `.progress` events are sent as body bytes arrive (the default). A consumer that draws no
    /// progress turns them off: the batch then builds and queues no event per chunk.
    public var reportsProgress: Bool = true
    /// Whether a `.started` event is sent as each item's first transfer begins (the default). A consumer that
    /// shows nothing in flight turns them off: the batch then sends one event per item instead of two.
    public var reportsStarts: Bool = true
    /// The identity of a URL (its absolute string) for duplicates and resume records: its
    /// ``URLFingerprint``. Only tests replace it, to give two URLs the part of a fingerprint a list's
    /// author could make them share.
    var urlFingerprint: @Sendable (String) -> URLFingerprint = { URLFingerprint(absoluteString: $0) }

    /// Options with every default, writing to `outputDirectory`.
    public init(outputDirectory: URL) {
        self.outputDirectory = outputDirectory
    }

    /// What produces each stored file under these options, as the manifest records it
    /// (``ManifestRecord/recipe``): the processing's ``ImageProcessing/identifier`` and the output format,
    /// such as `thumbnail(...) as jpeg, png with alpha`; `nil` when images are stored as they came. A file
    /// recorded with another recipe (an unrecorded one counting as `nil`) is made again, not skipped.
    public var recipe: String? {
        guard !storesAsReceived else { return nil }
        let steps = processing.isEmpty ? "convert" : ImageProcessors.Composition(processing).identifier
        let format = outputEncoding.map { $0.format.rawValue } ?? "source format"
        let alpha = alphaOutputEncoding.map { ", \($0.format.rawValue) with alpha" } ?? ""
        let animations =
            animatedThumbnailStep == nil ? "" : animationEncoding.map { ", animations as \($0.format.rawValue)" } ?? ""
        return "\(steps) as \(format)\(alpha)\(animations)"
    }

    /// How a file's extension is told before its download, for name claims: the URL's for bytes stored as they
    /// came, the one output format's when every file gets it, else not at all.
    var nameExtensionRule: FileNameClaims.ExtensionRule {
        if storesAsReceived { return .fromURL }
        guard let outputEncoding, alphaOutputEncoding.map({ $0.format == outputEncoding.format }) ?? true,
            animatedThumbnailStep == nil || animationEncoding.map({ $0.format == outputEncoding.format }) ?? true
        else {
            return .unknown
        }
        return .fixed(outputEncoding.format.fileExtension)
    }

    /// The thumbnail step animated sources are thumbnailed with, frame by frame: set when ``animationEncoding``
    /// is and a thumbnail is the only processing step.
    var animatedThumbnailStep: ImageProcessors.Thumbnail? {
        guard animationEncoding != nil, processing.count == 1 else { return nil }
        return processing.first as? ImageProcessors.Thumbnail
    }

    /// Whether images are stored as they came: no processing and no output encoding.
    public var storesAsReceived: Bool { processing.isEmpty && outputEncoding == nil }

    /// The most items of paced hosts (a rate, a `Crawl-delay` or a slowdown) held back from the window at
    /// once while their hosts' earlier items wait for their turns, so that the other hosts' items go on:
    /// 10,000 (under a kilobyte each). Past it, the list is read no further ahead.
    public var maximumParkedItems = 10_000

    /// How many items are held at once (queued for a slot, transferring, or processing): the memory window.
    var window: Int {
        max(1, concurrency) + 2 * ProcessInfo.processInfo.activeProcessorCount
    }
}
