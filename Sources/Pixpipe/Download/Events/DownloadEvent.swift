import Foundation

/// Something that happened in a batch; `index` is the item's 0-based position in the input sequence.
///
/// ```swift
/// for await event in downloader.run(items) {
///     if case .finished(let index, let record) = event { print(index, record.status) }
/// }
/// ```
public enum DownloadEvent: Sendable {
    /// The item's first attempt got its transfer slot.
    case started(index: Int, url: URL)
    /// Body bytes arrived (dropped rather than queued when the consumer falls behind).
    case progress(index: Int, bytesReceived: Int, bytesExpected: Int?)
    /// The item is done: stored, failed, or skipped.
    case finished(index: Int, record: ManifestRecord)
    /// A host's pace changed: slowed or paused after an overload answer, back to its own rate, or given a
    /// robots.txt `Crawl-delay`.
    case hostPace(HostPaceChange)
    /// The batch is over; always the last event.
    case stopped(DownloadSummary)
}
