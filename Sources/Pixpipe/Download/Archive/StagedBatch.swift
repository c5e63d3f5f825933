import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ordinary batch behind an archive output: it downloads the items into a hidden staging folder under
/// the output folder (`.pixpipe-staging/NAME`), each named by its WebDataset key, from which the archives
/// are packed. Its events are passed on with the list's indices; its records go to the caller, which packs
/// them and reports them once they are in an archive.
struct StagedBatch: Sendable {
    /// The archive output's options.
    let options: DownloadOptions
    /// The staging folder.
    let staging: URL
    /// The archive output's channel.
    let events: EventChannel

    /// The staging folder `name` under the output folder of `options`.
    init(options: DownloadOptions, name: String, events: EventChannel) {
        self.options = options
        self.staging = options.outputDirectory.appendingPathComponent(".pixpipe-staging")
            .appendingPathComponent(name)
        self.events = events
    }

    /// The options of the batch: the archive output's, writing loose files named by key into the staging
    /// folder, with its own manifest there (and originals kept only when `keepsOriginal`).
    func innerOptions(keepsOriginal: Bool) -> DownloadOptions {
        var inner = options
        inner.outputDirectory = staging
        inner.archive = nil
        inner.shard = nil
        inner.nameTemplate = nil
        inner.manifestName = "manifest.jsonl"
        inner.keepsOriginal = keepsOriginal && options.keepsOriginal
        return inner
    }

    /// Runs `items` (named by key) to the end, passing `.started`, `.progress` and `.hostPace` on with the list
    /// index `index(position)` of each, and handing each record to `finished` with that index as it comes;
    /// returns the batch's summary (see ``merge(_:into:)``).
    func run<Items: Sequence & Sendable>(
        _ items: Items, keepsOriginal: Bool, index: (Int) -> Int,
        finished: (Int, ManifestRecord) async throws(DownloadError) -> Void
    ) async throws(DownloadError) -> DownloadSummary? where Items.Element == DownloadItem {
        var innerSummary: DownloadSummary?
        for await event in Downloader(options: innerOptions(keepsOriginal: keepsOriginal)).run(items) {
            switch event {
            case .started(let position, let url):
                await events.send(.started(index: index(position), url: url))
            case .progress(let position, let received, let expected):
                events.offer(.progress(index: index(position), bytesReceived: received, bytesExpected: expected))
            case .finished(let position, let record):
                try await finished(index(position), record)
            case .hostPace(let change):
                await events.send(.hostPace(change))
            case .stopped(let stopped):
                innerSummary = stopped
            }
        }
        return innerSummary
    }

    /// Adds the hosts the batch that ended with `inner` slowed to `summary`; returns why the batch stopped
    /// short (`nil` when it did not).
    func merge(_ inner: DownloadSummary?, into summary: inout DownloadSummary) -> DownloadSummary.StopReason? {
        for (host, delay) in inner?.slowedHosts ?? [:] {
            summary.slowedHosts[host] = max(summary.slowedHosts[host] ?? 0, delay)
        }
        return inner?.stopReason ?? (Task.isCancelled ? .cancelled : nil)
    }

    /// Removes what a run cut short left in the staging folder: it is redone.
    func clear() {
        try? FileManager.default.removeItem(at: staging)
    }

    /// Removes the staging folder, and `.pixpipe-staging` when no other batch stages there.
    func remove() {
        try? FileManager.default.removeItem(at: staging)
        rmdir(staging.deletingLastPathComponent().path)
    }

    /// The staged files by key (a name up to its first dot): each item's stored image and kept original.
    func stagedNamesByKey() -> [String: [String]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        return Dictionary(grouping: names.filter { !$0.hasPrefix(".") }) { String($0.prefix { $0 != "." }) }
    }
}
