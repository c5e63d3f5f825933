import Foundation

/// One item of a batch as dispatched by the coordinator: everything decided before its download.
struct ItemJob: Sendable {
    /// The 0-based position in the input.
    var index: Int
    /// The item.
    var item: DownloadItem
    /// Its file name, with the content-dependent parts still open.
    var pattern: FileNamePattern
    /// The file an earlier run stored, when a refresh revalidates it; `nil` for a plain download.
    var stored: StoredCopy? = nil
    /// The name the folder's records give this item's URL alone, when the item keeps it: the one existing
    /// file (with its kept original) a new download may replace; every other name is published only if free.
    var ownName: String? = nil
    /// The names the folder's records give out, shared by every job (one copy-on-write dictionary): a name
    /// taken at publish time, when the claimed one turned out to have a file, skips those of other URLs too.
    var recorded = RecordedNames()
    /// The record of an item an earlier refresh found gone, its file still named, when this refresh prunes:
    /// the job then deletes that file (if it still holds the recorded bytes) instead of downloading.
    var recordedGone: PriorIndex.Entry? = nil
    /// Whether the item's stored file was made under another recipe (``DownloadOptions/recipe``): it is
    /// downloaded in full (no conditional request) and made again under this run's options.
    var redo = false
}

/// How one item ended, as the coordinator needs to know it.
enum ItemOutcome: Sendable {
    /// Stored, or failed for a reason of its own: record it and go on.
    case finished(ManifestRecord)
    /// A refresh stored new bytes over an earlier file: recorded like ``finished(_:)``, counted as updated.
    case replaced(ManifestRecord)
    /// A file made under another recipe was made again: recorded like ``finished(_:)``, counted as redone.
    case redone(ManifestRecord)
    /// Not downloaded (done earlier): report it, but the manifest already has its line.
    case skipped(ManifestRecord)
    /// Failed for a reason of its own: recorded like ``finished(_:)``, the error kept for the summary.
    case failed(ManifestRecord, DownloadError)
    /// Stopped by cancellation before anything was stored: no record.
    case cancelled
    /// A file could not be written: record it and stop the batch.
    case diskError(ManifestRecord, DownloadError)
}
