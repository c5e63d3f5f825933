/// The account of a batch.
///
/// ```swift
/// let summary = await downloader.download(items)
/// print("\(summary.ok) ok, \(summary.failed) failed", summary.failuresByKind)
/// ```
public struct DownloadSummary: Sendable, Hashable {
    /// Items stored.
    public var ok: Int
    /// Items that failed.
    public var failed: Int
    /// Items skipped (done earlier, or duplicates of an earlier item).
    public var skipped: Int
    /// Items a refresh found unchanged (`304`, or the same bytes): their files were left as they were.
    public var unchanged: Int
    /// Items a refresh stored again because their bytes changed (also counted in ``ok``).
    public var updated: Int
    /// Items a refresh found gone from the server (`404`, `410`).
    public var gone: Int
    /// Items whose stored file was made under other options (another ``DownloadOptions/recipe``) and was
    /// made again (also counted in ``ok``).
    public var redone = 0
    /// Bytes of the files the `ok` records name (kept originals not counted).
    public var bytes: Int
    /// Failed items by ``ManifestRecord/errorKind``.
    public var failuresByKind: [String: Int]
    /// Skipped items by why they were skipped: ``SkipReason/alreadyDone`` (stored by an earlier run),
    /// ``SkipReason/alreadyFailed``, ``SkipReason/alreadyGone`` (failed or found gone earlier, not retried
    /// without ``DownloadOptions/resume`` set to retry them), ``SkipReason/duplicate`` (the same URL earlier
    /// in the list), ``SkipReason/robotsDisallowed`` (``DownloadOptions/obeysRobotsTxt``), ``SkipReason/noAI``
    /// (``DownloadOptions/respectsNoAI``).
    public var skips: [SkipReason: Int] = [:]
    /// ``skips`` keyed by each reason's ``SkipReason/shortName`` (the ``ManifestRecord/errorKind`` of the
    /// skipped records, and the keys of `pixpipe fetch --json`'s summary): `already-done`, `duplicate`...
    public var skippedByReason: [String: Int] {
        Dictionary(uniqueKeysWithValues: skips.map { ($0.key.shortName, $0.value) })
    }
    /// Failed items whose bytes were still truncated or damaged at the last attempt (also counted in
    /// ``failed`` and ``failuresByKind``): a decode that is not strict would store what of them decodes.
    public var damagedImages = 0
    /// Hosts that answered `429` or `503` and were slowed down for it, with the longest time the batch then
    /// left between two requests to each, in seconds.
    public var slowedHosts: [String: Double] = [:]
    /// Why the batch stopped before the end, or `nil` when it ran to the end.
    public var stopReason: StopReason?
    /// The first lines of the folder's manifest that could not be used (unreadable, too long, naming a file
    /// this program does not write), in order; their items were fetched as new. At most 20 are described.
    public var manifestIssues: [ManifestLineIssue] = []
    /// How many lines of the folder's manifest could not be used (``manifestIssues`` describes the first).
    public var unusableManifestLines = 0

    /// Why a batch stopped early.
    public enum StopReason: Sendable, Hashable {
        /// The task running the batch (or consuming its events) was cancelled.
        case cancelled
        /// A file or the manifest could not be written; the message says which and why.
        case diskError(String)
    }

    /// A summary; every count starts at zero.
    public init(
        ok: Int = 0, failed: Int = 0, skipped: Int = 0, bytes: Int = 0, failuresByKind: [String: Int] = [:],
        stopReason: StopReason? = nil, unchanged: Int = 0, updated: Int = 0, gone: Int = 0
    ) {
        self.ok = ok
        self.failed = failed
        self.skipped = skipped
        self.bytes = bytes
        self.failuresByKind = failuresByKind
        self.stopReason = stopReason
        self.unchanged = unchanged
        self.updated = updated
        self.gone = gone
    }

    /// Counts `record` in; `failure` is the error of a failed record, when the run made it.
    mutating func add(_ record: ManifestRecord, failure: DownloadError? = nil) {
        if failure?.isRetryableContent == true { damagedImages += 1 }
        switch record.status {
        case .ok: ok += 1
        case .skipped:
            skipped += 1
            // Every skipped record a batch makes names its reason (see ``SkipReason``).
            if let reason = record.errorKind.flatMap(SkipReason.init(rawValue:)) { skips[reason, default: 0] += 1 }
        case .unchanged: unchanged += 1
        case .gone: gone += 1
        case .failed:
            failed += 1
            failuresByKind[record.errorKind ?? "unknown", default: 0] += 1
        }
        if record.status == .ok { bytes += record.bytes ?? 0 }
    }
}
