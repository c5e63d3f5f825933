import Dispatch

/// Runs blocking work (file system calls) on Dispatch's threads instead of the cooperative pool.
///
/// The cooperative pool has one thread per core; a thread parked in `openat` or `rename` (hundreds of
/// microseconds each on a journaling file system, far more on a busy disk) is a core that resumes no
/// finished transfer and starts no decode meanwhile. Dispatch adds threads when its own block, so slow
/// writes overlap each other and the rest of the batch. The work queued here is bounded by the batch's
/// window of items.
struct BlockingWorkQueue: Sendable {
    private let queue: DispatchQueue

    /// A queue named `label` for Dispatch's thread listings.
    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    }

    /// Runs `work` on a Dispatch thread and returns its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
