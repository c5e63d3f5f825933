import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a refresh settles an item whose stored file it revalidates (see ``DownloadOptions/refreshesStored``).
///
/// The request was conditional on the stored file's validators. `304` (or a full answer with the same
/// bytes) leaves the file as it is: not written, so its bytes and modification time stay. `404` and `410`
/// mean the server no longer has it: `gone`, the file kept unless the batch prunes. New bytes go through
/// the ordinary verify, process and atomic write (``ItemRunner/store``); any other failure keeps the
/// stored file and names it in the failed record, so later runs still count it as stored.
extension ItemRunner {
    /// The answers to a conditional request that settle a stored item without a body: not modified, gone.
    static let revalidationAnswers: Set<Int> = [304, 404, 410]

    /// The outcome of a `304`, `404` or `410` to the conditional request of `job`.
    func revalidated(_ job: ItemJob, response: Response<Data>, attempts: ItemAttempts) async -> ItemOutcome {
        response.statusCode == 304
            ? unchanged(job, response: response, attempts: attempts)
            : await gone(job, status: response.statusCode, attempts: attempts)
    }

    /// The `unchanged` record of `job`'s stored file, with the validators `response` sent (a `304` may
    /// update them, RFC 9111 4.3.4) or else the stored ones.
    func unchanged(_ job: ItemJob, response: Response<Data>, attempts: ItemAttempts) -> ItemOutcome {
        guard var stored = job.stored else { return .cancelled }
        let headers = response.headers
        if headers["ETag"] != nil || headers["Last-Modified"] != nil {
            stored.etag = headers["ETag"] ?? stored.etag
            stored.lastModified = headers["Last-Modified"] ?? stored.lastModified
        }
        var record = stored.record(url: job.item.url, status: .unchanged, httpStatus: response.statusCode)
        record.attempts = attempts.count
        record.elapsed = attempts.elapsedSeconds
        return .finished(record)
    }

    /// The `gone` record of `job` after `status`: the stored file kept (and named), or, when the batch
    /// prunes, deleted with its kept original (then the record names no file).
    private func gone(_ job: ItemJob, status: Int, attempts: ItemAttempts) async -> ItemOutcome {
        guard let stored = job.stored else { return .cancelled }
        let url = job.item.url.absoluteString
        var record = ManifestRecord(
            url: url, name: stored.name, status: .gone, httpStatus: status, bytes: stored.bytes,
            sha256: stored.sha256, attempts: attempts.count, elapsed: attempts.elapsedSeconds,
            error: "\(url): gone from the server (HTTP \(status)); the stored file is kept")
        guard options.prunesGone else { return .finished(record) }
        let directory = options.outputDirectory
        let keepsOriginal = options.keepsOriginal
        let removed = await fileWork.run { () -> Bool in
            if keepsOriginal {
                // The original's format is not recorded: try each one's extension.
                let stem = FileNameSanitizer.stem(of: stored.name) + ".original."
                for format in ImageFormat.all { _ = Self.remove(stem + format.fileExtension, in: directory) }
            }
            return Self.remove(stored.name, in: directory)
        }
        guard removed else {
            record.error = "\(url): gone from the server (HTTP \(status)); the stored file could not be deleted"
            return .finished(record)
        }
        record.name = nil
        record.bytes = nil
        record.sha256 = nil
        record.error = "\(url): gone from the server (HTTP \(status)); the stored file was deleted"
        return .finished(record)
    }

    /// The `gone` record of an item an earlier refresh found gone and whose file it kept (`entry` names it):
    /// no request is made, the manifest's word stands, and the file and its kept original are deleted, but
    /// only while the file still holds the recorded bytes (a file replaced since is someone else's: kept).
    func pruneRecordedGone(_ job: ItemJob, entry: PriorIndex.Entry) async -> ItemOutcome {
        guard let nameBytes = entry.name else { return .cancelled }
        let url = job.item.url.absoluteString
        let name = String(decoding: nameBytes, as: UTF8.self)
        let directory = options.outputDirectory
        let keepsOriginal = options.keepsOriginal
        let result = await fileWork.run { () -> PruneResult in
            let folder = openFolder(directory.path)
            guard folder >= 0 else { return .kept(sha256: nil) }
            defer { close(folder) }
            var status = stat()
            if fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) != 0, errno == ENOENT { return .missing }
            guard
                let (_, digest) = StoredFileReader().sizeAndDigest(
                    named: nameBytes, expectedBytes: entry.bytes, in: folder),
                PriorIndex.SHA256Bytes(bytes: digest.bytes) == entry.sha256
            else { return .changed }
            if keepsOriginal {
                let stem = FileNameSanitizer.stem(of: name) + ".original."
                for format in ImageFormat.all { StoredName.remove(stem + format.fileExtension, in: folder) }
            }
            return StoredName.remove(name, in: folder) ? .deleted : .kept(sha256: digest.hexString)
        }
        var record = ManifestRecord(url: url, status: .gone, attempts: 0, elapsed: 0)
        switch result {
        case .deleted, .missing:
            record.error = "\(url): gone from the server in an earlier refresh; the stored file was deleted"
        case .changed:
            // Named, so the file stays this URL's, but with no hash: no later run counts it as stored.
            record.name = name
            record.error = "\(url): gone from the server in an earlier refresh; \(name) changed since and is kept"
        case .kept(let sha256):
            record.name = name
            record.bytes = entry.bytes
            record.sha256 = sha256
            record.error = "\(url): gone from the server in an earlier refresh; the stored file could not be deleted"
        }
        return .finished(record)
    }

    /// What pruning a recorded-gone file came to.
    private enum PruneResult: Sendable {
        /// The file and its kept original were deleted.
        case deleted
        /// No file had the name any more.
        case missing
        /// The file no longer holds the recorded bytes: kept.
        case changed
        /// The file could not be deleted; it holds the bytes with this hash, when it could be read.
        case kept(sha256: String?)
    }

    /// Removes the stored file `name` from `directory`; `true` when it is no longer there. Through
    /// ``StoredName/remove(_:in:)``: the name may come from a manifest others wrote, so only a regular file
    /// that is that name inside the folder is ever removed.
    @discardableResult
    static func remove(_ name: String, in directory: URL) -> Bool {
        StoredName.remove(name, in: directory)
    }
}
