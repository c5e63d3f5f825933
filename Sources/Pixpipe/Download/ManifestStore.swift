import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON Lines manifest of an output folder: read at the start of a batch, appended as items finish.
///
/// Records are written in batches of complete lines, one `write` per batch (one per item cost a system
/// call per file, on the coordinator): a batch goes out once it holds ``batchLines`` lines or
/// ``batchBytes`` bytes, or at the first record ``batchInterval`` after the last write, and whatever is
/// left goes out when the batch ends (``synchronize()``, which every ending reaches: done, cancelled,
/// SIGINT, a full disk) or the store is released. A killed run so loses at most the lines of the last
/// batch; their files are on the disk without a line, and the next run fetches those items again and
/// replaces them, as it does for a line torn by the kill. At most one torn line is left at the end:
/// opening cuts it off (so new lines never glue onto it), and reading skips any line that does not parse.
/// Lines keep the order of the calls. Later lines for a URL win over earlier ones.
/// Only the owner of the batch uses a store, so it needs no lock.
///
/// Several processes may share a folder (shards run at once on one machine): each holds a shared `flock`
/// on the manifest for its whole batch, and only a process that finds no other one there (it gets the
/// lock exclusively first) cuts a torn tail or removes leftover temporary files. Others would cut a line
/// still being appended, or a temporary file still being written; their appends, whole lines with
/// `O_APPEND`, interleave safely.
final class ManifestStore {
    /// Path of the manifest.
    let path: String
    private let descriptor: Int32
    /// Fingerprints of the offending texts of the line errors already recorded, read whatever the resume
    /// mode: a rerun never records the same unusable line twice.
    private var recordedLineErrors: Set<UInt64> = []
    /// Whether no other process had the manifest open when this one opened it: then leftovers in the folder
    /// (a torn tail, temporary files) are a killed run's, and safe to remove.
    private(set) var isSoleUser = false

    /// Lines appended but not yet written, in order.
    private var pending = Data()
    /// How many lines `pending` holds.
    private var pendingLines = 0
    /// When the last batch was written.
    private var lastWrite = ContinuousClock.now

    /// The most lines held before they are written.
    static let batchLines = 64
    /// The most bytes held before they are written.
    static let batchBytes = 64 * 1024
    /// The longest a line waits when records keep coming; a record after a longer lull is written at once.
    static let batchInterval = Duration.milliseconds(100)

    /// Opens (creating) the manifest `name` in `directory` and returns it with the records already there,
    /// keyed by URL fingerprint (`readsPrior == false` skips reading, for a full redo). When no other process
    /// has it open, the torn tail is cut and `cleanUp` runs (on a thread of its own, while the manifest is
    /// read), both before any other process may start.
    static func open(
        named name: String, in directory: URL, readsPrior: Bool,
        whenSoleUser cleanUp: @escaping @Sendable () -> Void = {}
    ) throws(DownloadError) -> (ManifestStore, PriorIndex) {
        let path = directory.appendingPathComponent(name).path
        let descriptor = openForAppending(path)
        guard descriptor >= 0 else { throw .write(path: path, operation: "open", code: errno) }
        let store = ManifestStore(path: path, descriptor: descriptor)
        store.isSoleUser = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        // Shared from here on, until the store closes; a sole user only once it has cleaned up (below), and
        // the others wait here until then.
        if !store.isSoleUser { _ = flock(descriptor, LOCK_SH) }
        // The clean-up (a listing of the whole folder: 200,000 entries when resuming a large batch) runs on a
        // thread of its own (not the shared pool, which this one may be holding) while the manifest is read;
        // both end before the lock is shared.
        let cleaned = DispatchSemaphore(value: 0)
        if store.isSoleUser {
            Thread {
                cleanUp()
                cleaned.signal()
            }
            .start()
        }
        var prior = PriorIndex()
        // Lines are parsed and their URLs hashed on one lane per core; the index is built in the file's order.
        let validLength = ManifestReader.forEachLine(
            in: descriptor, lanes: ProcessInfo.processInfo.activeProcessorCount,
            prepare: { line in (URLFingerprint(absoluteString: line.url).value, line) }
        ) { fingerprint, line in
            if ManifestRecord.isLineError(kind: line.errorKind) { store.recordedLineErrors.insert(fingerprint) }
            guard readsPrior else { return }
            prior.insert(line, fingerprint: fingerprint)
        }
        if store.isSoleUser {
            cleaned.wait()
            guard ftruncate(descriptor, off_t(validLength)) == 0 else {
                throw .write(path: path, operation: "truncate the torn end of", code: errno)
            }
            _ = flock(descriptor, LOCK_SH)
        }
        return (store, prior)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        try? flush()
        close(descriptor)
    }

    /// Appends `record` as one line, written with the batch it falls in (see the type's summary).
    func append(_ record: ManifestRecord) throws(DownloadError) {
        pending.append(record.jsonLine)
        pendingLines += 1
        if pendingLines >= Self.batchLines || pending.count >= Self.batchBytes
            || ContinuousClock.now - lastWrite >= Self.batchInterval
        {
            try flush()
        }
    }

    /// Writes the lines appended so far in one `write` (more only after a short write).
    func flush() throws(DownloadError) {
        guard !pending.isEmpty else { return }
        // Dropped even when the write fails: the failure stops the batch, and the lines must not be written
        // twice by a later flush.
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingLines = 0
            lastWrite = ContinuousClock.now
        }
        do throws(AtomicFileWriter.Failure) {
            try AtomicFileWriter.writeAll(pending, to: descriptor, path: path)
        } catch {
            throw DownloadError(error)
        }
    }

    /// Appends the failed record of an unusable list line, unless the manifest already holds one for its text.
    func append(lineError error: URLListError) throws(DownloadError) {
        let record = ManifestRecord(lineError: error)
        guard recordedLineErrors.insert(URLFingerprint(absoluteString: record.url).value).inserted else { return }
        try append(record)
    }

    /// Writes the pending lines and flushes the manifest to the disk.
    func synchronize() throws(DownloadError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw .write(path: path, operation: "fsync", code: errno) }
    }
}

/// The C `open` for reading and appending, creating the file; reachable from a type with its own `open`.
private func openForAppending(_ path: String) -> Int32 {
    // Close-on-exec: a child process started meanwhile (by a program that embeds the downloader, or by the
    // tests, which run the CLI) would otherwise inherit the descriptor, and with it the shared lock, for as
    // long as it lives, and the next run in the folder would think another still works there.
    open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
}
