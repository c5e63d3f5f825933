/// Why an item was skipped rather than downloaded: the `errorKind` of its `skipped` record.
///
/// ```swift
/// if summary.skips[.alreadyDone, default: 0] > 0 { print("some were stored by an earlier run") }
/// ```
public enum SkipReason: String, Sendable, Hashable, CaseIterable {
    /// The same URL as an earlier item of the list.
    case duplicate
    /// An earlier run stored it, and the file is still there with its hash.
    case alreadyDone = "already-done"
    /// An earlier run failed it, and failures are not retried.
    case alreadyFailed = "already-failed"
    /// An earlier refresh found it gone from the server (`404`/`410`), and failures are not retried.
    case alreadyGone = "already-gone"
    /// The host's robots.txt disallows it (or could not be read: then every URL of the host is skipped).
    case robotsDisallowed = "robots-disallowed"
    /// Its response's `X-Robots-Tag` says `noai` or `noimageai`; the body was not read.
    case noAI = "noai"

    /// The stable short name recorded in the manifest.
    public var shortName: String { rawValue }
}
