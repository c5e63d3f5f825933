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
/// the ordinary verify, process and atomic write (``ItemPipeline/store``); any other failure keeps the
/// stored file and names it in the failed record, so later runs still count it as stored.
extension ItemPipeline {
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

    /// Removes the stored file `name` from `directory`; `true` when it is no longer there. Through
    /// ``StoredName/remove(_:in:)``: the name may come from a manifest others wrote, so only a regular file
    /// that is that name inside the folder is ever removed.
    @discardableResult
    static func remove(_ name: String, in directory: URL) -> Bool {
        StoredName.remove(name, in: directory)
    }
}
