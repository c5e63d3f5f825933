import Pixpipe

/// A first pass over a URL list: how many items, in which shard, on which hosts, and which lines are bad.
///
/// The list is streamed, so the pass costs the memory of one line plus the host tally (capped).
struct FetchListScan: Sendable {
    /// Usable entries in the whole list.
    var entries = 0
    /// Usable entries in this run's shard (all of them without `--shard`).
    var entriesInShard = 0
    /// Lines in error, by kind.
    var invalidByKind: [String: Int] = [:]
    /// Entries in the shard by host, for the first ``maximumHosts`` hosts.
    var hosts: [String: Int] = [:]
    /// Entries in the shard on hosts beyond the first ``maximumHosts``.
    var entriesOnOtherHosts = 0
    /// The first entries of the shard, for the dry run's preview.
    var preview: [URLListEntry] = []
    /// An error that ended the list (no url column, unreadable file), if any.
    var fatalError: URLListError?

    /// How many hosts are tallied by name.
    static let maximumHosts = 1_000
    /// How many entries the preview keeps.
    static let previewLength = 10

    /// Lines in error.
    var invalidLines: Int { invalidByKind.values.reduce(0, +) }

    /// Counts the entries of `list` (all, and in `shard`) and its lines in error by kind, calling `onInvalid` for
    /// each line in error (not for a list-ending error): what a run needs before its batch, without the hosts
    /// and preview of a dry run. Each URL is checked, not built (``URLList/checkedEntries``), with the same
    /// outcome as ``scan(_:shard:onInvalid:)``'s.
    static func count(_ list: URLList, shard: Shard?, onInvalid: (URLListError) -> Void) -> FetchListScan {
        var scan = FetchListScan()
        for element in list.checkedEntries {
            switch element {
            case .success(let entry):
                scan.entries += 1
                if shard?.contains(absoluteString: entry.absoluteString) ?? true { scan.entriesInShard += 1 }
            case .failure(let error):
                scan.record(error, onInvalid: onInvalid)
            }
        }
        return scan
    }

    /// Reads `list`, calling `onInvalid` for each line in error (not for a list-ending error).
    static func scan(_ list: URLList, shard: Shard?, onInvalid: (URLListError) -> Void) -> FetchListScan {
        var scan = FetchListScan()
        for element in list {
            switch element {
            case .success(let entry):
                scan.entries += 1
                guard shard?.contains(entry.url) ?? true else { continue }
                scan.entriesInShard += 1
                if scan.preview.count < previewLength { scan.preview.append(entry) }
                let host = entry.url.host ?? ""
                if scan.hosts[host] != nil || scan.hosts.count < maximumHosts {
                    scan.hosts[host, default: 0] += 1
                } else {
                    scan.entriesOnOtherHosts += 1
                }
            case .failure(let error):
                scan.record(error, onInvalid: onInvalid)
            }
        }
        return scan
    }

    /// Keeps a list-ending `error` as the scan's fatal error; counts any other by kind and hands it to `onInvalid`.
    private mutating func record(_ error: URLListError, onInvalid: (URLListError) -> Void) {
        guard !error.endsList else {
            self.fatalError = error
            return
        }
        invalidByKind[error.shortName, default: 0] += 1
        onInvalid(error)
    }
}
