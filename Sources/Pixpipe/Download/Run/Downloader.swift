import Foundation
import PixpipeLocking

/// Downloads batches of images: bounded and polite, verified by decoding, named predictably, written
/// atomically, with a JSON Lines manifest that lets a rerun resume.
///
/// ```swift
/// var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: "images"))
/// options.outputEncoding = .png   // convert every image to PNG
/// let downloader = Downloader(options: options)
/// let summary = await downloader.download(urls.map { DownloadItem(url: $0) })
/// print("\(summary.ok) stored, \(summary.failed) failed")
/// ```
///
/// How a batch works:
/// - Items are pulled from the sequence one at a time as room frees up in a window of
///   `concurrency + 2 × cores` items, so a list of any length costs the same memory (plus 8 bytes per URL
///   for duplicate detection and 8 per name for collision checks).
/// - Transfers wait for a slot in the downloader's own scheduler (``DownloadOptions/concurrency`` in all,
///   ``DownloadOptions/perHostConcurrency`` per host) before they start, so queueing never eats into a
///   timeout. Decoding and encoding run in child tasks, one per core at most, while other items download.
/// - Each body is decoded in full; a truncated or corrupt body is fetched again within the retry budget.
/// - Names: the item's name, else the URL's last path component, sanitized, through the template, with
///   the extension of the format actually stored; collisions get `-2`, `-3`... decided in list order (see
///   `FileNameClaims`), so they never depend on timing and every shard agrees.
/// - The same URL twice in one list is fetched once; later copies are reported `skipped` (`duplicate`).
/// - Skipped items (`duplicate`, `already-done`, `already-failed`) are reported as events but not appended
///   to the manifest, which keeps one line per item actually attempted; cancelled items get no line at all.
///   Items skipped for the site's sake (`robots-disallowed` under ``DownloadOptions/obeysRobotsTxt``, `noai`
///   under ``DownloadOptions/respectsNoAI``) do get a line, so the folder says why their files are missing;
///   a later run asks again.
public final class Downloader: Sendable {
    /// The settings.
    public let options: DownloadOptions
    private let client: HTTPClient
    private let writer: any DownloadFileWriting

    /// A downloader with `options`.
    public convenience init(options: DownloadOptions) {
        self.init(options: options, writer: AtomicFileWriter())
    }

    /// A downloader storing files through `writer` (tests inject write failures here).
    init(options: DownloadOptions, writer: any DownloadFileWriting) {
        self.options = options
        self.writer = writer
        let concurrency = max(1, options.concurrency)
        var configuration = HTTPClient.Configuration(
            maxConcurrentRequests: concurrency, timeout: options.timeout, maxBodyBytes: options.maxBodyBytes,
            maxRedirects: max(0, options.maxRedirects), retryPolicy: .none,
            userAgent: options.userAgent ?? HTTPClient.Configuration.defaultUserAgent)
        configuration.keepsHeadersAcrossOrigins = options.keepsHeadersAcrossOrigins
        client = HTTPClient(
            configuration: configuration,
            transport: options.transport.makeTransport(
                maxConnectionsPerHost: min(concurrency, max(1, options.perHostConcurrency)),
                trust: options.trustedCertificates))
    }

    /// Downloads `items` (consumed lazily, with backpressure: never materialized) and reports events as
    /// they happen. Cancelling the consuming task stops new work, finishes or removes files being written,
    /// writes the manifest, and ends the events with `.stopped`.
    public func run<Items: Sequence & Sendable>(_ items: Items) -> DownloadEvents
    where Items.Element == DownloadItem {
        run(items, invalidLines: EmptyCollection<URLListError>())
    }

    /// Downloads `items` as ``run(_:)`` does, and records each of `invalidLines` (the unusable lines of the
    /// list the items came from, such as ``URLList/lineErrors``) in the manifest as a failed record whose
    /// `url` is the offending text, before the first item. A line the manifest already records is not
    /// recorded again, and under a ``DownloadOptions/shard`` only share 0 records them, so merged shard
    /// folders hold each once. They are not events and not in the summary: the list's reader reports them.
    public func run<Items: Sequence & Sendable, Invalid: Sequence & Sendable>(
        _ items: Items, invalidLines: Invalid
    ) -> DownloadEvents where Items.Element == DownloadItem, Invalid.Element == URLListError {
        let channel = EventChannel(capacity: 256)
        if case .webDataset(let shardSize) = options.archive {
            let batch = WebDatasetBatch(options: options, shardSize: shardSize, events: channel)
            let task = Task { await batch.run(items, invalidLines: invalidLines) }
            return DownloadEvents(lease: DownloadLease(channel: channel, task: task))
        }
        if case .comicBook(let name, let groupBy) = options.archive {
            let batch = ComicBookBatch(options: options, bookName: name, groupColumn: groupBy, events: channel)
            let task = Task { await batch.run(items, invalidLines: invalidLines) }
            return DownloadEvents(lease: DownloadLease(channel: channel, task: task))
        }
        let processors = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let pacer = HostRequestPacer(options: options)
        let robots =
            options.obeysRobotsTxt
            ? RobotsCache(client: client, options: options, pacer: pacer, events: channel) : nil
        var runner = ItemRunner(
            options: options, client: client,
            network: ConcurrencyLimiter(limit: options.concurrency, perKeyLimit: options.perHostConcurrency),
            processors: ConcurrencyLimiter(limit: processors), writer: writer,
            fileWork: BlockingWorkQueue(label: "pixpipe.download.files"), events: channel,
            pacer: pacer, robots: robots)
        if options.shard != nil {
            runner.sharedSlots = SharedTransferSlots(
                outputDirectory: options.outputDirectory, limit: options.perHostConcurrency)
        }
        let batch = DownloadBatch(options: options, runner: runner, events: channel)
        let task = Task { await batch.run(items, invalidLines: invalidLines) }
        return DownloadEvents(lease: DownloadLease(channel: channel, task: task))
    }

    /// Runs `items` to the end and returns the summary (cancelling the caller stops the batch early).
    public func download<Items: Sequence & Sendable>(_ items: Items) async -> DownloadSummary
    where Items.Element == DownloadItem {
        for await event in run(items) {
            if case .stopped(let summary) = event { return summary }
        }
        return DownloadSummary(stopReason: .cancelled)
    }
}
