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
    private var recordedLineErrors: Set<URLFingerprint> = []
    /// The lines read that could not be used, in order (the first ``keptIssues``), and how many there were.
    private(set) var issues: [ManifestLineIssue] = []
    /// How many lines read could not be used.
    private(set) var issueCount = 0
    /// The most unusable lines described one by one; the others are only counted.
    static let keptIssues = 20
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
    /// keyed by URL fingerprint (`readsPrior == false` skips reading, for a full redo). The manifest must be
    /// a regular file: a symbolic link (even to a regular file), a FIFO, a folder or a device there is
    /// refused (``DownloadError/unsafeManifest(path:type:)``) before anything is read or written. Lines that
    /// cannot be used are skipped and kept in ``issues``: unreadable, too long, or naming a file this program
    /// does not write (``StoredName/isValid(_:)``), whose item is then fetched again. When no other process
    /// has it open, the torn tail is cut and `cleanUp` runs (on a thread of its own, while the manifest is
    /// read), both before any other process may start.
    static func open(
        named name: String, in directory: URL, readsPrior: Bool,
        fingerprint: @escaping @Sendable (String) -> URLFingerprint = { URLFingerprint(absoluteString: $0) },
        whenSoleUser cleanUp: @escaping @Sendable () -> Void = {}
    ) throws(DownloadError) -> (ManifestStore, PriorIndex) {
        let path = directory.appendingPathComponent(name).path
        let descriptor = try openRegularFile(path)
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
            prepare: { line in (fingerprint(line.url), line) },
            skipped: { store.note($0) }
        ) { prepared, number in
            let (key, line) = prepared
            if ManifestRecord.isLineError(kind: line.errorKind) { store.recordedLineErrors.insert(key) }
            // A name that is not one this program writes makes the whole line unusable: its item is then
            // fetched as new (or settled by an earlier, sound line), never matched to a file by that name.
            if let name = line.name, !StoredName.isValid(name) {
                store.note(ManifestLineIssue(line: number, reason: .unsafeName))
                return
            }
            guard readsPrior else { return }
            prior.insert(line, fingerprint: key)
        }
        guard let validLength else {
            let code = errno
            if store.isSoleUser { cleaned.wait() }
            throw .write(path: path, operation: "read", code: code)
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

    /// Keeps `issue` (described while fewer than ``keptIssues`` are) and counts it.
    private func note(_ issue: ManifestLineIssue) {
        issueCount += 1
        if issues.count < Self.keptIssues { issues.append(issue) }
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
        guard recordedLineErrors.insert(URLFingerprint(absoluteString: record.url)).inserted else { return }
        try append(record)
    }

    /// Writes the pending lines and flushes the manifest to the disk.
    func synchronize() throws(DownloadError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw .write(path: path, operation: "fsync", code: errno) }
    }
}

/// Opens the manifest at `path` for reading and appending, creating it, and checks that it is a regular file.
///
/// `O_NOFOLLOW`: a symbolic link there (planted by whoever could write the folder) would otherwise have the
/// run read, cut and append to whatever it points at. `O_NONBLOCK`: opening a FIFO must not wait for a
/// writer. The type is checked on the descriptor (`fstat`), so nothing can be swapped in between.
private func openRegularFile(_ path: String) throws(DownloadError) -> Int32 {
    // Close-on-exec: a child process started meanwhile (by a program that embeds the downloader, or by the
    // tests, which run the CLI) would otherwise inherit the descriptor, and with it the shared lock, for as
    // long as it lives, and the next run in the folder would think another still works there.
    let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else {
        let code = errno
        // What is there decides the message: a link (`ELOOP`), a folder (`EISDIR`), or a plain failure.
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw .unsafeManifest(path: path, type: fileTypeName(status.st_mode))
        }
        throw .write(path: path, operation: "open", code: code)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
        let code = errno
        close(descriptor)
        throw .write(path: path, operation: "stat", code: code)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        throw .unsafeManifest(path: path, type: fileTypeName(status.st_mode))
    }
    return descriptor
}

/// What a file of mode `mode` is, in words.
func fileTypeName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFLNK: "a symbolic link"
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "not a regular file"
    }
}
