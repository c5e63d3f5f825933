import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decides on the coordinator, without a task per item, whether a resumed batch skips an item.
///
/// A resumed run over a finished folder skips every item, so this is all it does per item: one task per
/// skipped item and `FileManager.contents` of each stored file made a 200,000-item resume take 44 s. An
/// item recorded `ok` is skipped only when its stored file still has the recorded size and SHA-256: read
/// leanly by a ``StoredFileReader``, and for a batch of such items (``skips(_:)``) on several lanes at once,
/// one reader each, since the reads are system calls and hashing, a third of a resumed run's time, and they
/// do not depend on each other. Only the coordinator calls a check.
///
/// Why `@unchecked Sendable` is safe: everything but the readers is immutable after `init`, and the readers
/// are used by one ``skips(_:)`` at a time: the coordinator (``PendingChecks``) starts a batch in the
/// background only after awaiting the one before, and awaits every batch before it calls ``skip(url:prior:)``,
/// which reads a stored file only for the records ``readsStoredFile(for:)`` sends to ``skips(_:)`` anyway.
final class ResumeCheck: @unchecked Sendable {
    /// One item whose skip is decided by ``skips(_:)``.
    struct Candidate: Sendable {
        /// The item's URL.
        var url: URL
        /// What the earlier run recorded.
        var prior: PriorIndex.Entry
    }

    private let mode: ResumeMode
    /// The output folder, open for `openat`; -1 when it cannot be opened (then no stored file checks out).
    private let directory: Int32
    /// One reader per lane.
    private let readers: [StoredFileReader]

    /// A check for a batch in `mode` storing into `directory`, reading up to `lanes` stored files at once.
    init(mode: ResumeMode, directory: URL, lanes: Int) {
        self.mode = mode
        self.directory = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        readers = (0..<max(1, lanes)).map { _ in StoredFileReader() }
    }

    deinit {
        if directory >= 0 { close(directory) }
    }

    /// Whether the skip of an item with `prior` depends on its stored file (then ``skips(_:)`` can decide it
    /// with others at once); when `false`, ``skip(url:prior:)`` decides without reading anything.
    func readsStoredFile(for prior: PriorIndex.Entry) -> Bool {
        mode != .redoAll && prior.outcome == .ok && prior.name != nil && prior.sha256 != nil
    }

    /// The skip record when an earlier run already settled the item at `url`, per the resume mode; `nil`
    /// when the item must be downloaded (no usable record, a failure of the run, a stored file changed).
    func skip(url: URL, prior: PriorIndex.Entry) -> ManifestRecord? {
        Self.skip(url: url, prior: prior, mode: mode, directory: directory, reader: readers[0])
    }

    /// ``skip(url:prior:)`` of each candidate, in order, with the stored files read on the check's lanes at
    /// once.
    func skips(_ candidates: [Candidate]) -> [ManifestRecord?] {
        let lanes = min(readers.count, candidates.count / Self.minimumPerLane)
        guard lanes > 1 else { return candidates.map { skip(url: $0.url, prior: $0.prior) } }
        var results = [ManifestRecord?](repeating: nil, count: candidates.count)
        results.withUnsafeMutableBufferPointer { output in
            let work = LaneWork(
                candidates: candidates, readers: readers, output: output, mode: mode, directory: directory)
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                // Interleaved, so lanes get files of similar sizes on average.
                for position in stride(from: lane, to: work.candidates.count, by: lanes) {
                    let candidate = work.candidates[position]
                    work.output[position] = Self.skip(
                        url: candidate.url, prior: candidate.prior, mode: work.mode, directory: work.directory,
                        reader: work.readers[lane])
                }
            }
        }
        return results
    }

    /// Below this many candidates per lane, another lane costs more than it saves.
    static let minimumPerLane = 8

    private static func skip(
        url: URL, prior: PriorIndex.Entry, mode: ResumeMode, directory: Int32, reader: StoredFileReader
    ) -> ManifestRecord? {
        guard mode != .redoAll else { return nil }
        switch prior.outcome {
        case .ok:
            guard let name = prior.name, let sha256 = prior.sha256,
                let (bytes, digest) = reader.sizeAndDigest(named: name, expectedBytes: prior.bytes, in: directory),
                PriorIndex.SHA256Bytes(bytes: digest.bytes) == sha256
            else { return nil }
            return ManifestRecord(
                url: url.absoluteString, name: String(decoding: name, as: UTF8.self), status: .skipped, bytes: bytes,
                sha256: digest.hexString, error: "already stored by an earlier run",
                errorKind: SkipReason.alreadyDone.shortName)
        case .failedItem:
            guard mode == .skipCompleted else { return nil }
            return ManifestRecord(
                url: url.absoluteString, status: .skipped, error: "failed in an earlier run (retry with retryFailed)",
                errorKind: SkipReason.alreadyFailed.shortName)
        case .gone:
            // Like an item's failure: kept by a resume, asked again under retryFailed.
            guard mode == .skipCompleted else { return nil }
            return ManifestRecord(
                url: url.absoluteString, status: .skipped,
                error: "gone from the server in an earlier refresh (retry with retryFailed)",
                errorKind: SkipReason.alreadyGone.shortName)
        case .failedRun, .skipped:
            // Failures caused by the run itself (stopped, disk) say nothing about the item: always redo them.
            return nil
        }
    }
}

/// What the lanes of ``ResumeCheck/skips(_:)`` share.
///
/// Why `@unchecked Sendable` is safe: `candidates` and `readers` are immutable arrays read by every lane;
/// lane `k` uses only `readers[k]` (a reader's buffer and digest context are so used by one thread) and
/// writes only the `output` positions `p` with `p % lanes == k`, so no two lanes touch the same state;
/// `DispatchQueue.concurrentPerform` returns only after every lane has finished, inside the closure that
/// keeps `output`'s array alive, so the pointer never outlives its memory and nobody reads it meanwhile.
private struct LaneWork: @unchecked Sendable {
    let candidates: [ResumeCheck.Candidate]
    let readers: [StoredFileReader]
    let output: UnsafeMutableBufferPointer<ManifestRecord?>
    let mode: ResumeMode
    let directory: Int32
}
