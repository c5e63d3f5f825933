/// What a run does with items that the output folder's manifest already records.
///
/// In every mode, an `ok` record counts only while its file is present with the recorded SHA-256;
/// otherwise the item is downloaded again. Records of items stopped by cancellation or a write error are
/// never kept as failures: those items are always redone.
public enum ResumeMode: Sendable, Hashable {
    /// Skip items recorded `ok` or `failed`; download only what has no record (the default: resume).
    case skipCompleted
    /// Skip items recorded `ok`; download again the `failed` ones and those with no record.
    case retryFailed
    /// Ignore the manifest: download everything again.
    case redoAll
}
