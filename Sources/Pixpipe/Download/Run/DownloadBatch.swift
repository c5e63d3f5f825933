import Foundation

/// Runs one batch: reads the list lazily, decides names, dispatches a bounded window of items, records
/// outcomes in order of completion, and ends with `.stopped`.
///
/// The coordinator is this one task; it owns the manifest, the name claims, the fingerprints of URLs
/// already seen, and the summary. It decides resume skips itself (see ``ResumeCheck``: no task for an
/// item an earlier run settled), and leaves the heavy work to child tasks, one per item downloaded. At most
/// ``DownloadOptions/window`` items exist at once, and the next item is pulled from the input only
/// when one finishes, so memory holds the window plus 8 bytes per URL seen and per name claimed (plus the
/// earlier manifest's index with 16 bytes per name it records, see ``RecordedNames``, and, when resuming, at
/// most two batches of items whose stored files are being checked: see ``PendingChecks``), whatever the
/// length of the list. Items of a paced host beyond its per-host limit wait outside the window (see
/// ``HostParking``), so a slow host does not hold back the others. Its events go to the channel in batches.
struct DownloadBatch: Sendable {
    let options: DownloadOptions
    let runner: ItemRunner
    let events: EventChannel

    /// Records `invalidLines`, runs `items` to the end or until stopped, sends `.stopped`, finishes the
    /// channel, and returns the summary.
    ///
    /// `.stopped` goes out only once the batch has let go of the folder: the manifest closed, and with it
    /// the lock that tells the next run in the folder whether another still works there (see
    /// ``ManifestStore``). A caller that starts the next run on `.stopped` must find the folder free, or
    /// that run would leave a killed run's torn line and temporary files in place.
    func run<Items: Sequence & Sendable, Invalid: Sequence & Sendable>(
        _ items: Items, invalidLines: Invalid
    ) async -> DownloadSummary where Items.Element == DownloadItem, Invalid.Element == URLListError {
        defer { events.finish() }
        let summary = await runHoldingFolder(items, invalidLines: invalidLines)
        await events.send(.stopped(summary))
        return summary
    }

    /// Everything ``run(_:invalidLines:)`` does but the final event; the manifest is closed on return.
    private func runHoldingFolder<Items: Sequence & Sendable, Invalid: Sequence & Sendable>(
        _ items: Items, invalidLines: Invalid
    ) async -> DownloadSummary where Items.Element == DownloadItem, Invalid.Element == URLListError {
        var summary = DownloadSummary()
        let manifest: ManifestStore
        let prior: PriorIndex
        do throws(DownloadError) {
            (manifest, prior) = try prepareFolder()
            // Only share 0 records the list's bad lines, so merged shard folders hold each once.
            if (options.shard?.index ?? 0) == 0 {
                for error in invalidLines { try manifest.append(lineError: error) }
            }
        } catch {
            summary.stopReason = .diskError(error.description)
            return summary
        }
        summary = await dispatch(items, manifest: manifest, prior: prior)
        summary.slowedHosts = runner.pacer.slowedHosts
        summary.manifestIssues = manifest.issues
        summary.unusableManifestLines = manifest.issueCount
        if summary.stopReason == nil, Task.isCancelled { summary.stopReason = .cancelled }
        // The files first, then the manifest, so no line is on the disk before the file it records.
        let fileSync = options.fileSync
        let directory = options.outputDirectory
        var flushFailure: DownloadError? = await runner.fileWork.run {
            guard fileSync == .atEnd else { return nil }
            do throws(AtomicFileWriter.Failure) {
                try AtomicFileWriter.synchronizeFileSystem(containing: directory.path)
                return nil
            } catch {
                return DownloadError(error)
            }
        }
        if flushFailure == nil {
            do throws(DownloadError) { try manifest.synchronize() } catch { flushFailure = error }
        }
        if let flushFailure, summary.stopReason == nil { summary.stopReason = .diskError(flushFailure.description) }
        return summary
    }

    /// Creates the folder, opens the manifest, and removes temporary files a killed run left (unless another
    /// process, such as another shard, works in the folder: the files may be its writes in flight).
    private func prepareFolder() throws(DownloadError) -> (ManifestStore, PriorIndex) {
        let directory = options.outputDirectory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .write(path: directory.path, operation: "create the folder", code: (error as NSError).posixCode)
        }
        return try ManifestStore.open(
            // Read even for a full redo (which skips nothing): the names the records give out stay taken.
            named: options.manifestName, in: directory, readsPrior: true, fingerprint: options.urlFingerprint
        ) {
            AtomicFileWriter.removeLeftovers(in: directory.path)
        }
    }

    private func dispatch<Items: Sequence & Sendable>(
        _ items: Items, manifest: ManifestStore, prior: PriorIndex
    ) async -> DownloadSummary where Items.Element == DownloadItem {
        var summary = DownloadSummary()
        // The coordinator's events, sent together: `pending.count` reaches `eventBatch`, or the coordinator is
        // about to wait for a child task, or the list is done.
        var pending: [DownloadEvent] = []
        pending.reserveCapacity(Self.eventBatch)
        let resume = ResumeCheck(
            mode: options.resume, directory: options.outputDirectory,
            lanes: ProcessInfo.processInfo.activeProcessorCount)
        // Items whose skip depends on their stored file, decided in batches on the check's lanes while the
        // coordinator reads on (reported in list order with the coordinator's other reports: those wait for
        // the checks before them), and the items the checks sent to download, started as the window has room.
        var checks = PendingChecks()
        var ready: [ItemJob] = []
        let recorded = RecordedNames(prior)
        var claims = FileNameClaims(
            template: options.nameTemplate, recorded: recorded, keepsOriginal: options.keepsOriginal,
            extensionRule: options.nameExtensionRule)
        var seen = SeenURLs()
        var iterator = items.makeIterator()
        var nextIndex = 0
        var exhausted = false
        let window = options.window
        let runner = self.runner
        var parking = HostParking(perHost: options.perHostConcurrency, capacity: options.maximumParkedItems)
        var released: [ItemJob] = []
        await withTaskGroup(of: (Int, ItemOutcome).self) { group in
            var running = 0
            while true {
                while running < window, summary.stopReason == nil, !Task.isCancelled {
                    if !released.isEmpty || !ready.isEmpty {
                        // A released item was parked and already has its place: see HostParking.
                        let job: ItemJob
                        if !released.isEmpty {
                            job = released.removeFirst()
                        } else {
                            job = ready.removeFirst()
                            if parking.parks(job, pacedHost: runner.pacedHost(of: job)) { continue }
                        }
                        let reservation = runner.reserveTransfer(for: job)
                        group.addTask { (job.index, await runner.run(job, reservation: reservation)) }
                        running += 1
                        continue
                    }
                    guard !exhausted else {
                        guard !checks.isEmpty else { break }
                        await settle(
                            checks.drain(using: resume), ready: &ready, summary: &summary, pending: &pending)
                        continue
                    }
                    guard let item = iterator.next() else {
                        exhausted = true
                        continue
                    }
                    let index = nextIndex
                    nextIndex += 1
                    let fingerprint = options.urlFingerprint(item.url.absoluteString)
                    let inShard =
                        options.shard.map { Shard.bucket(of: fingerprint.shardValue, count: $0.count) == $0.index }
                        ?? true
                    guard seen.insert(fingerprint) else {
                        if inShard {
                            await settle(
                                checks.drain(using: resume), ready: &ready, summary: &summary, pending: &pending)
                            await report(.skipped(duplicate(of: item)), index: index, into: &summary, pending: &pending)
                        }
                        continue
                    }
                    // Every item claims its name, in list order, even out of this shard: see FileNameClaims.
                    let entry = prior[fingerprint]
                    let (pattern, ownName) = claims.claim(
                        for: item, index: index, fingerprint: fingerprint, recordedName: entry?.name)
                    guard inShard else { continue }
                    // Settled by an earlier run: reported by the coordinator, in list order, with no task and no
                    // window slot. A refresh instead revalidates each file still as the run stored it (checked here,
                    // one at a time: the request that follows costs far more than the read).
                    var stored: StoredCopy?
                    // An item an earlier refresh found gone still names its kept file: a pruning refresh deletes it.
                    var recordedGone: PriorIndex.Entry?
                    // A file made under other options (another recipe, an unrecorded one counting as none) is
                    // made again: downloaded in full, replacing the stored file when that is still as recorded.
                    let redo = entry.map { $0.outcome == .ok && $0.recipe != options.recipe } ?? false
                    if let entry, options.refreshesStored, options.prunesGone, entry.outcome == .gone, entry.name != nil
                    {
                        recordedGone = entry
                    } else if let entry, redo {
                        stored = resume.skip(url: item.url, prior: entry).flatMap { StoredCopy(entry, verified: $0) }
                    } else if let entry {
                        if !options.refreshesStored, resume.readsStoredFile(for: entry) {
                            checks.append(
                                (
                                    ItemJob(
                                        index: index, item: item, pattern: pattern, ownName: ownName,
                                        recorded: recorded),
                                    ResumeCheck.Candidate(url: item.url, prior: entry)
                                ))
                            if checks.isFull {
                                await settle(
                                    checks.rotate(using: resume), ready: &ready, summary: &summary, pending: &pending)
                            }
                            continue
                        }
                        if let skipped = resume.skip(url: item.url, prior: entry) {
                            stored = options.refreshesStored ? StoredCopy(entry, verified: skipped) : nil
                            if stored == nil {
                                await settle(
                                    checks.drain(using: resume), ready: &ready, summary: &summary, pending: &pending)
                                await report(.skipped(skipped), index: index, into: &summary, pending: &pending)
                                continue
                            }
                        }
                    }
                    let job = ItemJob(
                        index: index, item: item, pattern: pattern, stored: stored, ownName: ownName,
                        recorded: recorded, recordedGone: recordedGone, redo: redo)
                    // A paced host's items past its per-host limit wait outside the window: see HostParking.
                    if parking.parks(job, pacedHost: runner.pacedHost(of: job)) { continue }
                    // The place in the network queue is taken here, in list order: child tasks start in no set order.
                    let reservation = runner.reserveTransfer(for: job)
                    group.addTask { (index, await runner.run(job, reservation: reservation)) }
                    running += 1
                }
                await flush(&pending)
                guard let (index, outcome) = await group.next() else {
                    // Nothing runs: nothing may be left parked (see HostParking.releaseAll).
                    let stranded = parking.releaseAll()
                    if stranded.isEmpty || summary.stopReason != nil || Task.isCancelled { break }
                    released += stranded
                    continue
                }
                running -= 1
                // The ended item's host has room again: its next parked item goes first.
                if let next = parking.ended(index: index) { released.append(next) }
                let stopNow = await record(outcome, index: index, manifest: manifest, into: &summary, pending: &pending)
                if stopNow { group.cancelAll() }
            }
        }
        await flush(&pending)
        return summary
    }

    /// Reports the checked items an earlier run settled, in order, and puts the others in `ready`.
    private func settle(
        _ checked: [(ItemJob, ManifestRecord?)], ready: inout [ItemJob], summary: inout DownloadSummary,
        pending: inout [DownloadEvent]
    ) async {
        for (job, skipped) in checked {
            if let skipped {
                await report(.skipped(skipped), index: job.index, into: &summary, pending: &pending)
            } else {
                ready.append(job)
            }
        }
    }

    /// Records `outcome` in the manifest and the summary and reports it; `true` when the batch must stop.
    private func record(
        _ outcome: ItemOutcome, index: Int, manifest: ManifestStore, into summary: inout DownloadSummary,
        pending: inout [DownloadEvent]
    ) async -> Bool {
        switch outcome {
        case .cancelled:
            return false
        case .skipped:
            await report(outcome, index: index, into: &summary, pending: &pending)
            return false
        case .finished(let record), .replaced(let record), .redone(let record), .failed(let record, _):
            do throws(DownloadError) {
                try manifest.append(record)
            } catch {
                await report(outcome, index: index, into: &summary, pending: &pending)
                return stop(&summary, because: error)
            }
            await report(outcome, index: index, into: &summary, pending: &pending)
            return false
        case .diskError(let record, let error):
            try? manifest.append(record)
            await report(outcome, index: index, into: &summary, pending: &pending)
            return stop(&summary, because: error)
        }
    }

    private func stop(_ summary: inout DownloadSummary, because error: DownloadError) -> Bool {
        if summary.stopReason == nil { summary.stopReason = .diskError(error.description) }
        return true
    }

    /// How many of the coordinator's events go to the channel at once (one lock, at most one wake-up of
    /// the consumer; see ``EventChannel/send(contentsOf:)``).
    static let eventBatch = 64

    /// Adds `outcome` to the summary and its event to `pending`, sending them when the batch is full.
    private func report(
        _ outcome: ItemOutcome, index: Int, into summary: inout DownloadSummary, pending: inout [DownloadEvent]
    ) async {
        let record: ManifestRecord
        var failure: DownloadError?
        switch outcome {
        case .finished(let finished), .replaced(let finished), .redone(let finished), .skipped(let finished),
            .diskError(let finished, _):
            record = finished
        case .failed(let finished, let error):
            record = finished
            failure = error
        case .cancelled: return
        }
        summary.add(record, failure: failure)
        if case .replaced = outcome { summary.updated += 1 }
        if case .redone = outcome { summary.redone += 1 }
        pending.append(.finished(index: index, record: record))
        if pending.count >= Self.eventBatch { await flush(&pending) }
    }

    /// Sends the pending events, in order.
    private func flush(_ pending: inout [DownloadEvent]) async {
        guard !pending.isEmpty else { return }
        await events.send(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    private func duplicate(of item: DownloadItem) -> ManifestRecord {
        ManifestRecord(
            url: item.url.absoluteString, status: .skipped, error: "same URL as an earlier item of the list",
            errorKind: SkipReason.duplicate.shortName)
    }
}

extension NSError {
    /// The POSIX error code behind a Foundation file error, or `EIO` when there is none.
    fileprivate var posixCode: Int32 {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        if let underlying = userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return EIO
    }
}
