import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each host's transfer slots, shared by every process that writes to one output folder (the shards of a
/// list), so ``DownloadOptions/perHostConcurrency`` holds for all of them together rather than for each.
///
/// A host has `limit` lock files, `.pixpipe/slots/HOST/0` to `HOST/limit-1` in the output folder; a transfer
/// holds an exclusive `flock` on one of them from before its turn until its response is in. `flock`
/// belongs to the open file, so a process that dies, even killed, gives its slots back at once, and each
/// acquisition opens the file anew (two transfers of one process exclude each other like two processes).
/// When every slot is taken the transfer polls again after a pause that doubles from 1 ms to 50 ms, on its
/// own task: no thread is held while waiting, and cancelling the task ends the wait. Waiters of different
/// processes are not served in order. Shards given different limits share files `0` up to their own limit,
/// so the host never has more transfers in flight than the largest. Any failure to use the files (a
/// read-only folder, a file system without `flock`) leaves the host to the per-process limit.
final class SharedTransferSlots: Sendable {
    /// What ``acquire(key:)`` got.
    enum Acquisition {
        /// A slot, held until ``SharedTransferSlots/release(_:)`` is given this descriptor.
        case held(Int32)
        /// The host's slot files cannot be used: the per-process limit alone applies.
        case unshared
        /// The task was cancelled while waiting.
        case cancelled
    }

    /// What one pass over a host's slot files found.
    private enum Pass {
        case held(Int32)
        case busy
        case unusable
    }

    /// The folder of the hosts' slot folders.
    let folder: String
    /// Slot files per host: the per-host limit of this process.
    let limit: Int
    /// Hosts whose slot files could not be used, not tried again in this run.
    private let unusable = Locked(Set<String>())

    /// The longest pause between two passes over a full host's slots.
    static let longestPoll = Duration.milliseconds(50)

    /// Slots for the processes writing to `outputDirectory`, `limit` per host.
    init(outputDirectory: URL, limit: Int) {
        folder = outputDirectory.path + "/.pixpipe/slots"
        self.limit = max(1, limit)
    }

    /// Waits for a free slot of `key` (a host, or host and port), without holding a thread.
    func acquire(key: String) async -> Acquisition {
        let name = SharedHostSlots.fileName(for: key)
        if unusable.withLock({ $0.contains(name) }) { return .unshared }
        var pause = Duration.milliseconds(1)
        while true {
            switch pass(over: name) {
            case .held(let descriptor): return .held(descriptor)
            case .unusable:
                unusable.withLock { _ = $0.insert(name) }
                return .unshared
            case .busy: break
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                return .cancelled
            }
            pause = min(pause * 2, Self.longestPoll)
        }
    }

    /// Gives back the slot held through `descriptor`: closing the file drops its lock.
    func release(_ descriptor: Int32) {
        close(descriptor)
    }

    /// Tries each slot file of the host once, without blocking.
    private func pass(over name: String) -> Pass {
        let directory = folder + "/" + name
        for index in 0..<limit {
            let path = directory + "/" + String(index)
            // O_NOFOLLOW: a link planted in the folder would otherwise have us create files where it points.
            var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor < 0, errno == ENOENT {
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            }
            // Out of descriptors is this process's state now, not the folder's: the pass is tried again.
            if descriptor < 0, errno == EMFILE || errno == ENFILE || errno == EINTR { return .busy }
            guard descriptor >= 0 else { return .unusable }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .held(descriptor) }
            let failure = errno
            close(descriptor)
            guard failure == EWOULDBLOCK || failure == EAGAIN || failure == EINTR else { return .unusable }
        }
        return .busy
    }
}
