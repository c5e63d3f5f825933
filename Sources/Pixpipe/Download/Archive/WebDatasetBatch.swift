import Foundation
import PixpipeImage
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a batch into WebDataset shards (``ArchiveLayout/webDataset(shardSize:)``): the list, after this
/// process's ``DownloadOptions/shard`` and without duplicate URLs, is cut into runs of `shardSize` items in
/// list order. All of them are downloaded by one ordinary batch into a hidden staging folder (so the
/// transfers never drain at a shard's end: the next shard's items start while its last ones finish), and
/// each shard, once every one of its items is settled, is packed into its tar (written whole, then renamed,
/// members in list order), recorded in the folder's manifest, and its staged files removed.
///
/// A shard is finished once the manifest names it and its tar is in the folder (or, for a shard none of
/// whose items was stored, once the manifest names it: it has no tar): a rerun reports its items skipped
/// without a request. A shard cut short (killed, cancelled, a disk error) has no tar and no record and is
/// redone from the start by the next run; shards after it may be finished.
struct WebDatasetBatch: Sendable {
    let options: DownloadOptions
    let shardSize: Int
    let events: EventChannel

    /// Records `invalidLines` as a plain batch does, runs `items` to the end or until stopped, sends
    /// `.stopped`, finishes the channel.
    func run<Items: Sequence & Sendable, Invalid: Sequence & Sendable>(
        _ items: Items, invalidLines: Invalid
    ) async -> DownloadSummary where Items.Element == DownloadItem, Invalid.Element == URLListError {
        defer { events.finish() }
        var summary = DownloadSummary()
        do throws(DownloadError) {
            let directory = options.outputDirectory
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .write(path: directory.path, operation: "create the folder", code: EIO)
            }
            try ArchiveManifest.record(lineErrors: invalidLines, at: manifestPath, share: options.shard)
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
        removeLeftoverShards()
        let size = max(1, shardSize)
        let ledger = ShardLedger()
        let feed = ShardFeed(
            items: items, options: options, shardSize: size, finished: finishedShards(), ledger: ledger)
        // One staging folder per share: shares may fill one folder at once.
        let stem = (ArchiveLayout.webDatasetShardName(0, share: options.shard) as NSString).deletingPathExtension
        let staged = StagedBatch(options: options, name: stem.dropLast(5) + "webdataset", events: events)
        // Whatever an unfinished run left there is redone.
        staged.clear()
        var records: [Int: [Int: ManifestRecord]] = [:]
        let inner = try await staged.run(
            feed, keepsOriginal: true, index: { ledger.listIndex(at: $0) }
        ) { (index: Int, record: ManifestRecord) async throws(DownloadError) in
            await report(ledger.takeReports(), into: &summary)
            let number = ledger.shard(of: index)
            records[number, default: [:]][index] = record
            try await packReady(ledger, records: &records, staged: staged, summary: &summary)
        }
        await report(ledger.takeReports(), into: &summary)
        if let stopped = staged.merge(inner, into: &summary) {
            // Cut short: the shards not yet settled get no tar and no record; the next run redoes them.
            summary.stopReason = stopped
            return
        }
        try await packReady(ledger, records: &records, staged: staged, summary: &summary)
        staged.remove()
    }

    /// Reports the skips the feed decided (duplicates, items of finished shards).
    private func report(_ reports: [(index: Int, record: ManifestRecord)], into summary: inout DownloadSummary) async {
        guard !reports.isEmpty else { return }
        for (_, record) in reports { summary.add(record) }
        await events.send(contentsOf: reports.map { DownloadEvent.finished(index: $0.index, record: $0.record) })
    }

    /// Packs, records and reports each shard whose items are all assigned and settled.
    private func packReady(
        _ ledger: ShardLedger, records: inout [Int: [Int: ManifestRecord]], staged: StagedBatch,
        summary: inout DownloadSummary
    ) async throws(DownloadError) {
        for (number, members) in ledger.closedShards() {
            guard let settled = records[number], settled.count == members.count else { continue }
            let name = ArchiveLayout.webDatasetShardName(number, share: options.shard)
            let packed = try pack(members, records: settled, staged: staged, into: name)
            try ArchiveManifest.append(to: manifestPath, packed.map(\.record))
            ledger.remove(number)
            records[number] = nil
            for (_, record) in packed { summary.add(record) }
            await events.send(contentsOf: packed.map { DownloadEvent.finished(index: $0.index, record: $0.record) })
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

    /// The shards finished: those the manifest records and the folder holds, and those it records with no
    /// item stored (they have no tar), with the status of each URL in them.
    private func finishedShards() -> [String: [String: ManifestRecord.Status]] {
        var shards: [String: [String: ManifestRecord.Status]] = [:]
        for record in ArchiveManifest.archivedRecords(at: manifestPath) {
            shards[record.archive ?? "", default: [:]][record.url] = record.status
        }
        let directory = options.outputDirectory.path
        return shards.filter {
            FileManager.default.fileExists(atPath: "\(directory)/\($0.key)") || !$0.value.values.contains(.ok)
        }
    }

    /// Writes the tar `name` from the staged files of `members` (list indices, in list order), then removes
    /// them; returns the records as the folder's manifest keeps them (``ManifestRecord/archive`` set,
    /// ``ManifestRecord/name`` the member). A shard with no item stored gets no tar.
    private func pack(
        _ members: [Int], records: [Int: ManifestRecord], staged: StagedBatch, into name: String
    ) throws(DownloadError) -> [(index: Int, record: ManifestRecord)] {
        let stored = members.contains { records[$0]?.status == .ok }
        let path = options.outputDirectory.appendingPathComponent(name).path
        let writer = stored ? try ArchiveFileWriter(path: path, format: .tar) : nil
        let files = staged.stagedNamesByKey()
        let now = Int(Date().timeIntervalSince1970)
        var packed: [(index: Int, record: ManifestRecord)] = []
        for index in members {
            guard var record = records[index] else { continue }
            record.archive = name
            let key = ArchiveLayout.webDatasetKey(index: index)
            if let writer, record.status == .ok, let image = record.name {
                try writer.add(name: image, bytes: try read(image, from: staged), modified: now)
                // A kept original, `KEY.original.EXT`: a WebDataset reader puts it in the item's sample.
                for original in (files[key] ?? []).sorted() where original.hasPrefix(key + ".original.") {
                    try writer.add(name: original, bytes: try read(original, from: staged), modified: now)
                }
                var line = record.jsonLine
                line.removeLast()  // the line feed
                try writer.add(name: "\(key).json", bytes: line, modified: now)
            } else {
                record.name = nil
            }
            packed.append((index, record))
        }
        try writer?.finish()
        for index in members {
            for file in files[ArchiveLayout.webDatasetKey(index: index)] ?? [] {
                unlink(staged.staging.appendingPathComponent(file).path)
            }
        }
        return packed
    }

    /// The staged file `name`.
    private func read(_ name: String, from staged: StagedBatch) throws(DownloadError) -> Data {
        let path = staged.staging.appendingPathComponent(name).path
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw .write(path: path, operation: "read", code: errno == 0 ? EIO : errno)
        }
        return bytes
    }
}
