import Foundation
import PixpipeImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a batch into WebDataset shards (``ArchiveLayout/webDataset(shardSize:)``): the list, after this
/// process's ``DownloadOptions/shard`` and without duplicate URLs, is cut into runs of `shardSize` items in
/// list order; each run is downloaded by an ordinary batch into a hidden staging folder, packed into its tar
/// (written whole, then renamed), recorded in the folder's manifest, and its staging folder removed.
///
/// A shard is finished once the manifest names it and its tar is in the folder: a rerun reports its items
/// skipped without a request. A shard cut short (killed, cancelled, a disk error) has no tar and no record
/// and is redone from the start by the next run. Shards run one after another, so at most one is unfinished.
struct WebDatasetBatch: Sendable {
    let options: DownloadOptions
    let shardSize: Int
    let events: EventChannel

    /// Runs `items` to the end or until stopped, sends `.stopped`, finishes the channel.
    func run<Items: Sequence & Sendable>(_ items: Items) async -> DownloadSummary
    where Items.Element == DownloadItem {
        defer { events.finish() }
        var summary = DownloadSummary()
        do throws(DownloadError) {
            try await runShards(items, summary: &summary)
        } catch {
            if summary.stopReason == nil { summary.stopReason = .diskError(error.description) }
        }
        if summary.stopReason == nil, Task.isCancelled { summary.stopReason = .cancelled }
        await events.send(.stopped(summary))
        return summary
    }

    /// The folder's manifest.
    private var manifestPath: String {
        options.outputDirectory.appendingPathComponent(options.manifestName).path
    }

    private func runShards<Items: Sequence & Sendable>(
        _ items: Items, summary: inout DownloadSummary
    ) async throws(DownloadError) where Items.Element == DownloadItem {
        let directory = options.outputDirectory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .write(path: directory.path, operation: "create the folder", code: EIO)
        }
        removeLeftoverShards()
        let finished = finishedShards()
        var seen = Set<String>()
        var chunk: [(index: Int, item: DownloadItem)] = []
        var number = 0
        for (index, item) in items.enumerated() {
            if summary.stopReason != nil || Task.isCancelled { return }
            let text = item.url.absoluteString
            if let share = options.shard,
                Shard.bucket(of: options.urlFingerprint(text).shardValue, count: share.count) != share.index
            {
                continue
            }
            guard seen.insert(text).inserted else {
                let record = ManifestRecord(
                    url: text, status: .skipped, error: "same URL as an earlier item of the list",
                    errorKind: SkipReason.duplicate.shortName)
                summary.add(record)
                await events.send(.finished(index: index, record: record))
                continue
            }
            chunk.append((index, item))
            if chunk.count == max(1, shardSize) {
                try await runShard(number, chunk, finished: finished, summary: &summary)
                chunk.removeAll(keepingCapacity: true)
                number += 1
            }
        }
        if !chunk.isEmpty, summary.stopReason == nil, !Task.isCancelled {
            try await runShard(number, chunk, finished: finished, summary: &summary)
        }
    }

    /// Removes the temporary files of this process's shards that a killed run left (`.00000.tar.part-XXXXXX`;
    /// with a share `I/N`, only those of `I-of-N-`: other shares may be writing theirs into the folder now).
    private func removeLeftoverShards() {
        let directory = options.outputDirectory.path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let sample = ArchiveLayout.webDatasetShardName(0, share: options.shard)
        let prefix = "." + sample.dropLast("00000.tar".count)
        for name in names where AtomicFileWriter.isTemporary(name) && name.hasPrefix(prefix) {
            let shardName = name.dropFirst(prefix.count)
            // `00000.tar.part-`: this share's own names, not another share's `I-of-N-` ones.
            guard shardName.first?.isNumber == true, !shardName.contains("-of-"),
                shardName.contains(".tar" + AtomicFileWriter.temporaryMarker)
            else { continue }
            unlink("\(directory)/\(name)")
        }
    }

    /// The shards the manifest records and the folder holds, with the status of each URL in them.
    private func finishedShards() -> [String: [String: ManifestRecord.Status]] {
        var shards: [String: [String: ManifestRecord.Status]] = [:]
        for record in ArchiveManifest.archivedRecords(at: manifestPath) {
            shards[record.archive ?? "", default: [:]][record.url] = record.status
        }
        let directory = options.outputDirectory.path
        return shards.filter { FileManager.default.fileExists(atPath: "\(directory)/\($0.key)") }
    }

    /// Downloads, packs and records the shard `number` holding `chunk`, or reports it skipped when finished.
    private func runShard(
        _ number: Int, _ chunk: [(index: Int, item: DownloadItem)],
        finished: [String: [String: ManifestRecord.Status]], summary: inout DownloadSummary
    ) async throws(DownloadError) {
        let name = ArchiveLayout.webDatasetShardName(number, share: options.shard)
        if let done = finished[name] {
            var skips: [DownloadEvent] = []
            for (index, item) in chunk {
                let text = item.url.absoluteString
                let failed = done[text] == .failed
                let record = ManifestRecord(
                    url: text, status: .skipped,
                    error: failed ? "failed in an earlier run" : "in the finished shard \(name)",
                    errorKind: (failed ? SkipReason.alreadyFailed : SkipReason.alreadyDone).shortName, archive: name)
                summary.add(record)
                skips.append(.finished(index: index, record: record))
            }
            await events.send(contentsOf: skips)
            return
        }
        let staging = options.outputDirectory.appendingPathComponent(".pixpipe-staging")
            .appendingPathComponent((name as NSString).deletingPathExtension)
        // Whatever an unfinished run left there is redone.
        try? FileManager.default.removeItem(at: staging)
        var inner = options
        inner.outputDirectory = staging
        inner.archive = nil
        inner.shard = nil
        inner.nameTemplate = nil
        inner.manifestName = "manifest.jsonl"
        let items = chunk.map {
            DownloadItem(url: $0.item.url, name: ArchiveLayout.webDatasetKey(index: $0.index), line: $0.item.line)
        }
        var records: [Int: ManifestRecord] = [:]
        var innerSummary: DownloadSummary?
        for await event in Downloader(options: inner).run(items) {
            switch event {
            case .started(let position, let url):
                await events.send(.started(index: chunk[position].index, url: url))
            case .progress(let position, let received, let expected):
                events.offer(.progress(index: chunk[position].index, bytesReceived: received, bytesExpected: expected))
            case .finished(let position, let record):
                records[position] = record
            case .hostPace(let change):
                await events.send(.hostPace(change))
            case .stopped(let stopped):
                innerSummary = stopped
            }
        }
        for (host, delay) in innerSummary?.slowedHosts ?? [:] {
            summary.slowedHosts[host] = max(summary.slowedHosts[host] ?? 0, delay)
        }
        if let reason = innerSummary?.stopReason ?? (Task.isCancelled ? .cancelled : nil) {
            // Cut short: no tar, no record; the next run redoes the shard.
            summary.stopReason = reason
            return
        }
        let packed = try pack(chunk, records: records, from: staging, into: name)
        try ArchiveManifest.append(to: manifestPath, packed.map(\.record))
        try? FileManager.default.removeItem(at: staging)
        rmdir(staging.deletingLastPathComponent().path)  // only when no other shard is staged there
        for (index, record) in packed {
            summary.add(record)
            await events.send(.finished(index: index, record: record))
        }
    }

    /// Writes the tar `name` from the records' stored files in `staging`, in list order; returns the records
    /// as the folder's manifest keeps them (``ManifestRecord/archive`` set, ``ManifestRecord/name`` the member).
    private func pack(
        _ chunk: [(index: Int, item: DownloadItem)], records: [Int: ManifestRecord], from staging: URL,
        into name: String
    ) throws(DownloadError) -> [(index: Int, record: ManifestRecord)] {
        let writer = try ArchiveFileWriter(
            path: options.outputDirectory.appendingPathComponent(name).path, format: .tar)
        let now = Int(Date().timeIntervalSince1970)
        var packed: [(index: Int, record: ManifestRecord)] = []
        for (position, entry) in chunk.enumerated() {
            guard var record = records[position] else { continue }
            record.archive = name
            if record.status == .ok, let stored = record.name {
                let path = staging.appendingPathComponent(stored).path
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    throw .write(path: path, operation: "read", code: errno == 0 ? EIO : errno)
                }
                try writer.add(name: stored, bytes: bytes, modified: now)
                var line = record.jsonLine
                line.removeLast()  // the line feed
                try writer.add(
                    name: "\(ArchiveLayout.webDatasetKey(index: entry.index)).json", bytes: line, modified: now)
            } else {
                record.name = nil
            }
            packed.append((entry.index, record))
        }
        try writer.finish()
        return packed
    }
}
