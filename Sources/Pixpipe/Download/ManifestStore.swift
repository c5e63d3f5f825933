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
final class ManifestStore {
    /// What an earlier run recorded about a URL, for resuming.
    struct PriorRecord: Sendable {
        /// The status.
        var status: ManifestRecord.Status
        /// The stored file's name.
        var name: String?
        /// The stored file's hash.
        var sha256: String?
        /// The failure's kind.
        var errorKind: String?
    }

    /// Path of the manifest.
    let path: String
    private let descriptor: Int32
    /// Fingerprints of the offending texts of the line errors already recorded, read whatever the resume
    /// mode: a rerun never records the same unusable line twice.
    private var recordedLineErrors: Set<UInt64> = []
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
    /// keyed by URL fingerprint (`readsPrior == false` skips reading, for a full redo).
    static func open(
        named name: String, in directory: URL, readsPrior: Bool
    ) throws(DownloadError) -> (ManifestStore, [UInt64: PriorRecord]) {
        let path = directory.appendingPathComponent(name).path
        let descriptor = openForAppending(path)
        guard descriptor >= 0 else { throw .write(path: path, operation: "open", code: errno) }
        let store = ManifestStore(path: path, descriptor: descriptor)
        var prior: [UInt64: PriorRecord] = [:]
        let validLength = store.readRecords { record in
            let fingerprint = URLFingerprint(absoluteString: record.url).value
            if record.isLineError { store.recordedLineErrors.insert(fingerprint) }
            guard readsPrior else { return }
            prior[fingerprint] = PriorRecord(
                status: record.status, name: record.name, sha256: record.sha256, errorKind: record.errorKind)
        }
        guard ftruncate(descriptor, off_t(validLength)) == 0 else {
            throw .write(path: path, operation: "truncate the torn end of", code: errno)
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

    /// Calls `body` with each parsable line's record, streaming 64 KiB at a time; returns the length up to
    /// the end of the last complete line.
    private func readRecords(_ body: (ManifestRecord) -> Void) -> Int {
        let decoder = JSONDecoder()
        var pending = Data()
        var consumed = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            offset += off_t(count)
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                consumed += line.count + 1
                if let record = try? decoder.decode(ManifestRecord.self, from: line) { body(record) }
                pending = Data(pending[(newline + 1)...])
            }
        }
        return consumed
    }
}

/// The C `open` for reading and appending, creating the file; reachable from a type with its own `open`.
private func openForAppending(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_APPEND, 0o644)
}
