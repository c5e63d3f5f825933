import Foundation
import PixpipeLocking

/// The items of a WebDataset output as its staging batch reads them, lazily: this share's items without
/// duplicate URLs, cut into shards of `shardSize` in list order, less those of finished shards. What it
/// decides without a download (a duplicate, an item of a finished shard) and which shard each item it
/// passes on belongs to, it tells the packer through the ledger.
struct ShardFeed<Items: Sequence & Sendable>: Sequence, Sendable where Items.Element == DownloadItem {
    let items: Items
    let options: DownloadOptions
    let shardSize: Int
    /// The finished shards by name, with the status of each URL in them.
    let finished: [String: [String: ManifestRecord.Status]]
    let ledger: ShardLedger

    func makeIterator() -> Iterator {
        Iterator(feed: self, base: items.makeIterator())
    }

    /// Reads the list on as the batch asks for its next item.
    struct Iterator: IteratorProtocol {
        let feed: ShardFeed
        var base: Items.Iterator
        /// The list index of the next item read.
        var listIndex = 0
        /// How many items of this share, without duplicates, came so far: their places in the shards.
        var assigned = 0
        /// The batch's position of the next item passed on.
        var position = 0
        var seen = Set<String>()
        var ended = false

        mutating func next() -> DownloadItem? {
            let size = feed.shardSize
            while let item = base.next() {
                let index = listIndex
                listIndex += 1
                let text = item.url.absoluteString
                if let share = feed.options.shard,
                    Shard.bucket(of: feed.options.urlFingerprint(text).shardValue, count: share.count) != share.index
                {
                    continue
                }
                guard seen.insert(text).inserted else {
                    let record = ManifestRecord(
                        url: text, status: .skipped, error: "same URL as an earlier item of the list",
                        errorKind: SkipReason.duplicate.shortName)
                    feed.ledger.report(index: index, record: record)
                    continue
                }
                let number = assigned / size
                assigned += 1
                let name = ArchiveLayout.webDatasetShardName(number, share: feed.options.shard)
                if let done = feed.finished[name] {
                    let failed = done[text] == .failed
                    let record = ManifestRecord(
                        url: text, status: .skipped,
                        error: failed ? "failed in an earlier run" : "in the finished shard \(name)",
                        errorKind: (failed ? SkipReason.alreadyFailed : SkipReason.alreadyDone).shortName,
                        archive: name)
                    feed.ledger.report(index: index, record: record)
                    continue
                }
                feed.ledger.assign(position: position, index: index, shard: number, closes: assigned % size == 0)
                position += 1
                return DownloadItem(url: item.url, name: ArchiveLayout.webDatasetKey(index: index), line: item.line)
            }
            if !ended {
                ended = true
                // The last shard, short of `shardSize`, has all its items now.
                if assigned % size != 0 { feed.ledger.close(assigned / size) }
            }
            return nil
        }
    }
}

/// What a ``ShardFeed`` (read by the staging batch's task) tells the packer (the task reading its events):
/// the list index and shard of each item passed on, the members of each shard not yet packed, which of
/// them have all their items, and the skips it decided. Entries go once their shard is packed, so it holds
/// the shards in flight, not the list.
final class ShardLedger: Sendable {
    private struct State {
        var listIndex: [Int: Int] = [:]
        var shardOf: [Int: Int] = [:]
        var members: [Int: [Int]] = [:]
        var positions: [Int: [Int]] = [:]
        var closed: Set<Int> = []
        var reports: [(index: Int, record: ManifestRecord)] = []
    }

    private let state = Locked(State())

    /// Item `index` of the list is the batch's `position` and goes to `shard`, its last item when `closes`.
    func assign(position: Int, index: Int, shard: Int, closes: Bool) {
        state.withLock {
            $0.listIndex[position] = index
            $0.shardOf[index] = shard
            $0.members[shard, default: []].append(index)
            $0.positions[shard, default: []].append(position)
            if closes { $0.closed.insert(shard) }
        }
    }

    /// Shard `number` has all its items.
    func close(_ number: Int) {
        state.withLock { _ = $0.closed.insert(number) }
    }

    /// Item `index` of the list is settled without a download, as `record` says.
    func report(index: Int, record: ManifestRecord) {
        state.withLock { $0.reports.append((index, record)) }
    }

    /// The list index of the batch's `position`.
    func listIndex(at position: Int) -> Int {
        state.withLock { $0.listIndex[position] ?? position }
    }

    /// The shard of the list's item `index`.
    func shard(of index: Int) -> Int {
        state.withLock { $0.shardOf[index] ?? 0 }
    }

    /// The skips decided since the last call, in list order.
    func takeReports() -> [(index: Int, record: ManifestRecord)] {
        state.withLock { state in
            let reports = state.reports
            state.reports.removeAll()
            return reports
        }
    }

    /// The shards with all their items, in order, each with its members' list indices in list order.
    func closedShards() -> [(number: Int, members: [Int])] {
        state.withLock { state in
            state.closed.sorted().map { ($0, state.members[$0] ?? []) }
        }
    }

    /// Forgets shard `number`, packed.
    func remove(_ number: Int) {
        state.withLock { state in
            for index in state.members[number] ?? [] { state.shardOf[index] = nil }
            for position in state.positions[number] ?? [] { state.listIndex[position] = nil }
            state.members[number] = nil
            state.positions[number] = nil
            state.closed.remove(number)
        }
    }
}
